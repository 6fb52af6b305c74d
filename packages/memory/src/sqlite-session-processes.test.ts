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
  /** `stepped-ids` mode: sends batch `b`; resolves once the worker's `addItems` for it resolved. */
  step(b: number): Promise<void>;
  /** `stepped-ids` mode: no more batches (the worker closes the session and exits). */
  end(): void;
  done: Promise<string>;
}

/** Starts the append worker in a child `node --import tsx` process. */
function startWorker(args: string[], timeoutMs = 60_000, env: NodeJS.ProcessEnv = {}): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', worker, ...args], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '';
  let err = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const sent = new Map<number, () => void>();
  let partialLine = '';
  child.stdout.on('data', (d) => {
    out += d;
    if (out.startsWith('ready\n')) markReady();
    const lines = (partialLine + d).split('\n');
    partialLine = lines.pop() ?? '';
    for (const line of lines) {
      const b = /^sent (\d+)$/.exec(line)?.[1];
      if (b !== undefined) sent.get(Number(b))?.();
    }
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
    step(b) {
      const acked = new Promise<void>((resolve) => sent.set(b, resolve));
      child.stdin.write(`${b}\n`);
      return Promise.race([
        acked,
        done.then(() => {
          throw new Error(`append worker ${args[2]} exited before sending batch ${b}`);
        }),
      ]);
    },
    end: () => child.stdin.end(),
    done,
  };
}

describe('SqliteSession across processes', () => {
  it('six processes opening one fresh file at the same instant all open it (WAL conversion retried)', async () => {
    // `PRAGMA journal_mode = WAL` takes exclusive access without SQLite's busy handler: before
    // enableWal, about one cold open in 90 failed with SQLITE_BUSY here (CI saw it under load).
    for (let round = 0; round < 4; round++) {
      const path = join(dir, `cold-open-${round}.db`);
      const env = { OPEN_AT: String(Date.now() + 1500) };
      const workers = ['A', 'B', 'C', 'D', 'E', 'F'].map((w) =>
        startWorker([path, 'cold', w, '1', '1'], 60_000, env),
      );
      await Promise.all(workers.map((w) => w.ready));
      for (const w of workers) w.go();
      expect((await Promise.all(workers.map((w) => w.done))).sort()).toEqual(
        ['A', 'B', 'C', 'D', 'E', 'F'].map((w) => `done ${w}\n`),
      );
      const session = new SqliteSession({ sessionId: 'cold', path });
      expect(await session.getItems()).toHaveLength(6);
      session.close();
    }
  }, 90_000);

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
    const batches = 90;
    const perBatch = 3;
    const [a, b] = ['A', 'B'].map((w) =>
      startWorker([path, 'ids', w, String(batches), String(perBatch), 'stepped-ids']),
    );
    await Promise.all([a.ready, b.ready]);
    // Batch ids cycle through three orders: A sends first (B's append of the id comes after A's
    // committed), B sends first, or both at once (a real race, either may win). So each process
    // both claims ids and is refused ids another process claimed, and some claims race.
    const first = (n: number) => ['A', 'B', undefined][n % 3];
    for (let n = 0; n < batches; n++) {
      const arranged = first(n);
      if (arranged === undefined) await Promise.all([a.step(n), b.step(n)]);
      else {
        const [winner, loser] = arranged === 'A' ? [a, b] : [b, a];
        await winner.step(n);
        await loser.step(n);
      }
    }
    a.end();
    b.end();
    expect(await Promise.all([a.done, b.done])).toEqual([
      expect.stringMatching(/done A\n$/),
      expect.stringMatching(/done B\n$/),
    ]);
    const session = new SqliteSession({ sessionId: 'ids', path });
    const contents = (await session.getItems()).map((it) => (it as { content: string }).content);
    session.close();
    // Each batch landed once, whole, from the process that sent it first, in batch order.
    expect(contents).toHaveLength(batches * perBatch);
    for (let n = 0; n < batches; n++) {
      const w = contents[n * perBatch][0];
      if (first(n) !== undefined) expect(w).toBe(first(n));
      expect(contents.slice(n * perBatch, (n + 1) * perBatch)).toEqual(
        Array.from({ length: perBatch }, (_, k) => `${w}:${n}:${k}`),
      );
    }
  }, 90_000);
});
