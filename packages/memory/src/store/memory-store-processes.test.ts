/**
 * Two real child processes on one memory store (directory and SQLite): the store lock excludes
 * across processes (no lost update), and two concurrent flushes of one store process every
 * rollout exactly once and leave a consistent memory folder.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  appendRolloutSegment,
  DirectoryMemoryStore,
  MEMORY_FILE,
  type MemoryStore,
  readMemoryState,
  SqliteMemoryStore,
} from '@baton/memory';
import { afterAll, describe, expect, it } from 'vitest';

const worker = fileURLToPath(new URL('../__fixtures__/store-worker.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'baton-memstore-proc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function startWorker(args: string[], timeoutMs = 90_000) {
  const child = spawn(process.execPath, ['--import', 'tsx', worker, ...args], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((r) => (markReady = r));
  child.stdout.on('data', (d) => {
    out += d;
    if (out.startsWith('ready\n')) markReady();
  });
  child.stderr.on('data', (d) => (err += d));
  const done = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out.slice('ready\n'.length));
      else reject(new Error(`store worker exited with ${code ?? signal}: ${err}`));
    });
  });
  return {
    ready: Promise.race([ready, done.then(() => {})]),
    go: () => child.stdin.end('go\n'),
    done,
  };
}

async function together(argsList: string[][]): Promise<string[]> {
  const workers = argsList.map((a) => startWorker(a));
  await Promise.all(workers.map((w) => w.ready));
  for (const w of workers) w.go();
  return Promise.all(workers.map((w) => w.done));
}

const backends: [string, string, (loc: string) => MemoryStore][] = [
  ['DirectoryMemoryStore', 'dir', (loc) => new DirectoryMemoryStore({ root: loc })],
  ['SqliteMemoryStore', 'sqlite', (loc) => new SqliteMemoryStore({ path: loc })],
];

describe.each(backends)('%s across two processes', (_name, kind, open) => {
  it('the store lock excludes across processes: 2 × 40 locked read-increment-writes count to 80', async () => {
    const loc = join(dir, `${kind}-count${kind === 'sqlite' ? '.db' : ''}`);
    open(loc); // creates the folder / tables before the race
    expect(
      await together([
        [kind, loc, 'count', '40'],
        [kind, loc, 'count', '40'],
      ]),
    ).toEqual(['done\n', 'done\n']);
    const store = open(loc);
    expect(await store.readText('counter.txt')).toBe('80');
    (store as { close?: () => void }).close?.();
  }, 120_000);

  it('two processes flushing one store extract every rollout exactly once and consolidate all of them', async () => {
    const loc = join(dir, `${kind}-flush${kind === 'sqlite' ? '.db' : ''}`);
    const store = open(loc);
    const ids = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6'];
    for (const [i, id] of ids.entries())
      await appendRolloutSegment(store, {
        v: 1,
        rollout_id: id,
        run_id: `run_${id}`,
        agent: 'support',
        recorded_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
        terminal_state: 'completed',
        input: [{ type: 'message', role: 'user', content: `customer fact ${id}` }],
        generated_items: [],
      });
    const outputs = await together([
      [kind, loc, 'flush'],
      [kind, loc, 'flush'],
    ]);
    const reports = outputs.map((o) => JSON.parse(o));
    const extracted = reports.flatMap((r) => r.extracted).sort();
    // Every rollout once, by one of the two processes; neither failed.
    expect(extracted).toEqual(ids);
    expect(reports.map((r) => r.failed)).toEqual([0, 0]);
    const state = await readMemoryState(store);
    expect(Object.values(state.rollouts).map((r) => r.status)).toEqual(Array(6).fill('extracted'));
    expect(state.phase_two!.selected.sort()).toEqual(ids);
    const handbook = (await store.readText(MEMORY_FILE))!;
    for (const id of ids) expect(handbook).toContain(`- fact: customer fact ${id}`);
    (store as { close?: () => void }).close?.();
  }, 120_000);
});
