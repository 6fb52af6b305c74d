/**
 * Walks that visit many names — recursive remove, snapshot, close — against a sandboxed process
 * that flips a directory inside the walked tree between a real directory and a symlink to a host
 * directory. A walk that goes by path (lstat, then readdir/unlink of `dir/child`) follows the
 * symlink when it lands between its steps, deleting or copying host files; a walk that holds each
 * directory open cannot. Bounded: a fixed number of attempts per mode, each well under a second.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWorkingBwrap } from './bwrap.js';
import { localSandboxClient } from './local-sandbox-client.js';

const RACER = `
const fs = require('fs');
const out = process.argv[1];
fs.writeFileSync('race-ready', '');
const mv = (a, b) => { try { fs.renameSync(a, b); } catch {} };
let n = 0;
while (!fs.existsSync('race-stop')) {
  try { fs.mkdirSync('tree/sub', { recursive: true }); fs.writeFileSync('tree/sub/f.txt', 'inside'); } catch {}
  try { fs.symlinkSync(out, 'tree/link'); } catch {}
  mv('tree/sub', 'tree/sub.real');
  mv('tree/link', 'tree/sub');
  mv('tree/sub', 'tree/link');
  mv('tree/sub.real', 'tree/sub');
  n++;
}
console.log(n);
`;

const VICTIMS = 40;
/** At most this many walks per mode; alone they take ~35 s, so a loaded CI machine stops at the budget. */
const ATTEMPTS = 3_000;
/** Time budget for the walks (ms); whatever it allows must still be at least `MIN_ATTEMPTS`. */
const BUDGET_MS = 60_000;
/** Fewer walks than this would not have exercised the race enough to mean anything. */
const MIN_ATTEMPTS = 300;

/** `op`, or an error naming it when it takes longer than 30 s (a walk that never ends fails by name, not by the test timeout). */
async function inTime<T>(label: string, op: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label} did not finish within 30 s`)), 30_000);
  });
  try {
    return await Promise.race([op, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves once the racer has written `race-ready`; throws with its output if it ended first. */
async function racerReady(
  s: { readFile(path: string): Promise<unknown> },
  racer: Promise<{ stdout: string; stderr: string }>,
) {
  let ended: { stdout: string; stderr: string } | undefined;
  racer.then(
    (r) => {
      ended = r;
    },
    () => {},
  );
  while (
    !(await s.readFile('race-ready').then(
      () => true,
      () => false,
    ))
  ) {
    if (ended) throw new Error(`the racer ended before it was ready: ${JSON.stringify(ended)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
let host: string;
let secret: string;

async function filesUnder(dir: string, out: Record<string, string> = {}, prefix = '') {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) await filesUnder(join(dir, e.name), out, rel);
    else if (e.isFile()) out[rel] = await readFile(join(dir, e.name), 'utf8');
  }
  return out;
}

async function hostIntact(): Promise<string[]> {
  const now = await filesUnder(host);
  const missing: string[] = [];
  for (let i = 0; i < VICTIMS; i++)
    if (!(`victim-${i}.txt` in now)) missing.push(`victim-${i}.txt`);
  if (now['secret.txt'] !== secret) missing.push('secret.txt');
  return missing;
}

beforeAll(async () => {
  host = await mkdtemp(join(tmpdir(), 'baton-walk-race-host-'));
  secret = `host-secret-${Math.random().toString(36).slice(2)}`;
  await writeFile(join(host, 'secret.txt'), secret);
  for (let i = 0; i < VICTIMS; i++) await writeFile(join(host, `victim-${i}.txt`), 'victim');
});
afterAll(() => rm(host, { recursive: true, force: true }));

for (const isolation of ['bwrap', 'none'] as const) {
  describe(`local backend (${isolation}): walks hold their directories`, () => {
    it('recursive remove and snapshot never delete or copy host files while a subdirectory flips', {
      timeout: 240_000,
    }, async () => {
      if (isolation === 'bwrap')
        expect(
          findWorkingBwrap(),
          'bubblewrap is required: apt-get install -y bubblewrap',
        ).toBeTypeOf('string');
      const rootDir = await mkdtemp(join(tmpdir(), 'baton-walk-race-'));
      const client = localSandboxClient({ rootDir, isolation });
      const s = await client.create({ files: { 'tree/sub/f.txt': 'inside' } });
      const racer = s.exec([process.execPath, '-e', RACER, host], { timeoutMs: 200_000 });
      let removes = 0;
      let snapshots = 0;
      let flips = 0;
      let started = Date.now();
      const copied: string[] = [];
      const rawErrors: string[] = [];
      const named = (error: Error) => {
        if (!/^Sandbox/.test(error.name)) rawErrors.push(`${error.name}: ${error.message}`);
      };
      try {
        await inTime('the racer start', racerReady(s, racer));
        started = Date.now();
        for (let i = 0; i < ATTEMPTS && Date.now() - started < BUDGET_MS; i++) {
          if (i % 6 === 5) {
            snapshots++;
            const snap = await inTime(`snapshot #${i}`, s.snapshot().catch(named));
            if (!snap) continue;
            const dir = join(rootDir, 'snapshots', snap.snapshotId);
            for (const [name, content] of Object.entries(await filesUnder(dir)))
              if (content === secret || content === 'victim') copied.push(name);
            await client.deleteSnapshot!(snap);
          } else {
            removes++;
            await inTime(`remove #${i}`, s.remove('tree', { recursive: true }).catch(named));
          }
        }
      } finally {
        await s.writeFile('race-stop', '');
        flips = Number((await inTime('the racer stop', racer)).stdout.trim());
        console.info(
          `[walk race ${isolation}] removes=${removes} snapshots=${snapshots} ms=${Date.now() - started} flips=${flips} copied=${copied.length} missing=${(await hostIntact()).length} rawErrors=${rawErrors.length}`,
        );
        await s.close().catch(() => {});
        await rm(rootDir, { recursive: true, force: true });
      }
      expect(removes + snapshots).toBeGreaterThanOrEqual(MIN_ATTEMPTS);
      expect(flips).toBeGreaterThan(removes + snapshots);
      expect(rawErrors.slice(0, 5)).toEqual([]);
      expect(copied).toEqual([]);
      expect(await hostIntact()).toEqual([]);
    });

    it('close() kills running commands and deletes the workspace without following a flipped directory', {
      timeout: 180_000,
    }, async () => {
      const rootDir = await mkdtemp(join(tmpdir(), 'baton-walk-race-close-'));
      const client = localSandboxClient({ rootDir, isolation });
      try {
        for (let i = 0; i < 25; i++) {
          const s = await client.create({ files: { 'tree/sub/f.txt': 'inside' } });
          const racer = s.exec([process.execPath, '-e', RACER, host], { timeoutMs: 60_000 });
          await inTime('the racer start', racerReady(s, racer));
          await new Promise((r) => setTimeout(r, i % 5));
          const closed = await s.close().then(
            () => 'closed',
            (error: Error) => `${error.name}: ${error.message}`,
          );
          expect(closed).toBe('closed');
          expect(await racer).toMatchObject({ reason: 'aborted' });
          expect(await readdir(join(rootDir, 'sessions'))).toEqual([]);
        }
        expect(await hostIntact()).toEqual([]);
      } finally {
        await rm(rootDir, { recursive: true, force: true });
      }
    });
  });
}
