/**
 * Race-case settings for the local backend's conformance runs: a host directory as the outside
 * target (a bwrap sandbox has a private /tmp, so the kit's default would be vacuous) and a racer
 * in Node that flips `d` with rename(2) calls microseconds apart (far faster than a `mv` loop).
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type {
  SandboxOutsideDir,
  SandboxRaceOptions,
  SandboxRaceReport,
} from '@baton/testing/vitest';

export async function hostOutsideDir(): Promise<SandboxOutsideDir> {
  const path = await mkdtemp(join(tmpdir(), 'baton-race-host-'));
  const walk = async (dir: string, out: Record<string, string>) => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) await walk(p, out);
      else out[relative(path, p)] = await readFile(p, 'utf8');
    }
    return out;
  };
  return {
    path,
    async write(files) {
      for (const [name, content] of Object.entries(files)) {
        await mkdir(dirname(join(path, name)), { recursive: true });
        await writeFile(join(path, name), content);
      }
    },
    read: () => walk(path, {}),
    cleanup: () => rm(path, { recursive: true, force: true }),
  };
}

const RACER = `
const fs = require('fs');
fs.symlinkSync(process.argv[1], 'd.link');
fs.writeFileSync('race-ready', '');
const mv = (a, b) => { try { fs.renameSync(a, b); return true; } catch { return false; } };
let n = 0;
while (!fs.existsSync('race-stop')) {
  mv('d', 'd.real');
  mv('d.link', 'd');
  mv('d', 'd.link');
  let st; try { st = fs.lstatSync('d'); } catch {}
  if (st && !st.isSymbolicLink()) mv('d', 'stray-' + n);
  mv('d.real', 'd');
  n++;
}
console.log(n);
`;

/** argv of the Node racer (node is /usr/bin/node, visible inside bwrap's read-only /usr). */
export const nodeRacer = (outsidePath: string) => [process.execPath, '-e', RACER, outsidePath];

/** The race settings of the local suites: ≥ 10 000 attempts, a host outside dir, the fast racer. */
export function localRaceOptions(label: string): SandboxRaceOptions {
  return {
    attempts: 10_000,
    minAttempts: 10_000,
    timeMs: 240_000,
    outside: hostOutsideDir,
    racer: nodeRacer,
    onReport: (r: SandboxRaceReport) =>
      console.info(
        `[race ${label}] attempts=${r.attempts} escapes=${r.escapes} ${JSON.stringify(r.escapesByKind)} refused=${r.refused} flips=${r.flips} ms=${r.durationMs} ${JSON.stringify(r.byOp)}${r.escapeSamples.length ? `\n  ${r.escapeSamples.join('\n  ')}` : ''}`,
      ),
  };
}
