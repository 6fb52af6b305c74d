import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteSession } from '@baton/memory';
import { afterAll, describe, expect, it } from 'vitest';

const worker = fileURLToPath(new URL('./__fixtures__/append-worker.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'baton-sqlite-proc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A running append worker: `ready` resolves once it opened the session; `go()` starts it. */
interface Worker {
  ready: Promise<void>;
  go(): void;
  done: Promise<string>;
}

/** Starts the append worker in a child `node --import tsx` process. */
function startWorker(args: string[], timeoutMs = 60_000): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', worker, ...args], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout.on('data', (d) => {
    out += d;
    if (out.startsWith('ready\n')) markReady();
  });
  child.stderr.on('data', (d) => {
    err += d;
  });
  const done = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out.slice('ready\n'.length));
      else reject(new Error(`append worker ${args[2]} exited with ${code ?? signal}: ${err}`));
    });
  });
  return {
    ready: Promise.race([ready, done.then(() => {})]),
    go: () => child.stdin.end('go\n'),
    done,
  };
}

describe('SqliteSession across processes', () => {
  it('two processes appending to one session id lose and interleave nothing within one addItems', async () => {
    const path = join(dir, 'two-writers.db');
    const batches = 150;
    const perBatch = 4;
    const workers = ['A', 'B'].map((w) =>
      startWorker([path, 'shared', w, String(batches), String(perBatch)]),
    );
    // Barrier: both processes have opened the database before either writes.
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.go();
    expect(await Promise.all(workers.map((w) => w.done))).toEqual(['done A\n', 'done B\n']);

    const session = new SqliteSession({ sessionId: 'shared', path });
    const contents = (await session.getItems()).map((it) => (it as { content: string }).content);
    session.close();
    expect(contents).toHaveLength(2 * batches * perBatch);
    const order: Record<string, number[]> = { A: [], B: [] };
    let switches = 0;
    for (let i = 0; i < contents.length; i += perBatch) {
      const [w, b] = contents[i].split(':');
      expect(contents.slice(i, i + perBatch)).toEqual(
        Array.from({ length: perBatch }, (_, k) => `${w}:${b}:${k}`),
      );
      if (i > 0 && contents[i - 1][0] !== w) switches++;
      order[w].push(Number(b));
    }
    // The writers really overlapped: their batches alternate in the file (not one after the other).
    expect(switches).toBeGreaterThan(10);
    // Every batch of each process is there exactly once, in that process's order.
    const expected = Array.from({ length: batches }, (_, b) => b);
    expect(order.A).toEqual(expected);
    expect(order.B).toEqual(expected);
  }, 90_000);

  it('v2: two processes sending the same appendIds store each append once', async () => {
    const path = join(dir, 'same-ids.db');
    const batches = 150;
    const perBatch = 3;
    const workers = ['A', 'B'].map((w) =>
      startWorker([path, 'ids', w, String(batches), String(perBatch), 'shared-ids']),
    );
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.go();
    await Promise.all(workers.map((w) => w.done));
    const session = new SqliteSession({ sessionId: 'ids', path });
    const contents = (await session.getItems()).map((it) => (it as { content: string }).content);
    session.close();
    // Each batch landed once, whole, from whichever process got there first, in batch order.
    expect(contents).toHaveLength(batches * perBatch);
    const winners = new Set<string>();
    for (let b = 0; b < batches; b++) {
      const w = contents[b * perBatch][0];
      winners.add(w);
      expect(contents.slice(b * perBatch, (b + 1) * perBatch)).toEqual(
        Array.from({ length: perBatch }, (_, k) => `${w}:${b}:${k}`),
      );
    }
    expect(winners.size).toBe(2);
  }, 90_000);
});
