import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type PumpSteps, StreamPump } from './stream-pump.js';

const tick = () => new Promise((r) => setImmediate(r));

function pumpOver(
  source: AsyncIterator<unknown>,
  steps: Partial<PumpSteps<unknown, string>> = {},
): StreamPump<unknown, string> {
  return new StreamPump<unknown, string>({
    open: () => ({ [Symbol.asyncIterator]: () => source }),
    step: (event, out) => {
      out.push(String(event));
      return undefined;
    },
    end: () => {},
    error: (error, phase) => new Error(`${phase}: ${(error as Error)?.message ?? String(error)}`),
    ...steps,
  });
}

/** Settles within `ms` or says it hung (a pump whose `next()` never settles hangs its consumer). */
function within<T>(promise: Promise<T>, ms = 1000): Promise<T | 'hung'> {
  return Promise.race([promise, new Promise<'hung'>((r) => setTimeout(() => r('hung'), ms))]);
}

describe('StreamPump with a misbehaving source', () => {
  for (const [name, result] of [
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
  ] as const) {
    for (const [where, events] of [
      ['first read', 0],
      ['a later read', 2],
    ] as const) {
      it(`a read resolving ${name} (${where}) fails with phase "read", and the stream ends`, async () => {
        let reads = 0;
        let returned = 0;
        const source: AsyncIterator<unknown> = {
          next: () =>
            Promise.resolve(
              reads++ < events ? { value: reads, done: false } : (result as never),
            ) as Promise<IteratorResult<unknown>>,
          return: () => {
            returned++;
            return Promise.resolve({ value: undefined, done: true });
          },
        };
        const it = pumpOver(source);
        for (let i = 0; i < events; i++) expect((await it.next()).value).toBe(String(i + 1));
        const failed = await within(
          it.next().then(
            () => 'resolved',
            (e: Error) => e.message,
          ),
        );
        expect(failed).toMatch(/^read: /);
        // Done for good: a later next() resolves done (it does not hang or spin).
        expect(await within(it.next())).toEqual({ value: undefined, done: true });
        expect(returned).toBe(0);
      });
    }
  }

  it('a read resolving after return() is dropped, and the source is closed once', async () => {
    let resolve!: (r: IteratorResult<unknown>) => void;
    let returned = 0;
    const source: AsyncIterator<unknown> = {
      next: () =>
        new Promise((r) => {
          resolve = r;
        }),
      return: () => {
        returned++;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
    const it = pumpOver(source);
    const first = it.next();
    await tick();
    await it.return();
    resolve({ value: 'late', done: false });
    expect(await first).toEqual({ value: undefined, done: true });
    expect(await it.next()).toEqual({ value: undefined, done: true });
    expect(returned).toBe(1);
  });

  it('thousands of concurrently stopped streams each settle or are closed by their deadline', async () => {
    const count = 5000;
    let closed = 0;
    let ended = 0;
    const pumps = Array.from({ length: count }, (_, i) => {
      let reads = 0;
      const source: AsyncIterator<unknown> = {
        next: () => {
          reads++;
          if (reads === 1) return Promise.resolve({ value: 'stop', done: false });
          // even streams end by themselves, odd ones never do
          if (i % 2 === 0) {
            ended++;
            return Promise.resolve({ value: undefined, done: true });
          }
          return new Promise(() => {});
        },
        return: () => {
          closed++;
          return Promise.resolve({ value: undefined, done: true });
        },
      };
      return pumpOver(source, {
        step: (event, out) => {
          out.push(String(event));
          return 'stop';
        },
      });
    });
    const firsts = await Promise.all(pumps.map((p) => p.next()));
    expect(firsts.every((r) => r.value === 'stop')).toBe(true);
    await new Promise((r) => setTimeout(r, 1300));
    expect(ended).toBe(count / 2);
    expect(closed).toBe(count / 2);
  });

  it('a stopped stream whose source never ends does not keep the process alive', () => {
    const dist = fileURLToPath(new URL('./stream-pump.ts', import.meta.url));
    const code = `
      const { StreamPump } = await import(${JSON.stringify(dist)});
      let reads = 0;
      const source = { next: () => reads++ === 0 ? Promise.resolve({ value: 1, done: false }) : new Promise(() => {}), return: async () => ({ done: true }) };
      const it = new StreamPump({ open: () => ({ [Symbol.asyncIterator]: () => source }), step: (e, out) => { out.push(e); return 'stop'; }, end() {}, error: (e) => e });
      const realSetTimeout = globalThis.setTimeout;
      const timers = [];
      globalThis.setTimeout = (...args) => { const t = realSetTimeout(...args); timers.push(t); return t; };
      await it.next();
      console.log(timers.length, timers.some((t) => t.hasRef()));
    `;
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', code],
      {
        encoding: 'utf8',
        cwd: fileURLToPath(new URL('.', import.meta.url)),
        timeout: 10_000,
      },
    );
    // one settle timer, unref'd: the process exits without waiting for it
    expect(child.stdout.trim()).toBe('1 false');
    expect(child.status).toBe(0);
  });
});
