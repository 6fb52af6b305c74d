/**
 * The `withLock` cases of the memory-store suite: exclusion (also across two handles), the
 * result passed through, release on every exit path (a rejected or synchronously thrown `fn`),
 * the wait bounded by `timeoutMs` with a `MemoryLockTimeoutError`, independent names, refused
 * names, a waiting call stopped by its signal, and stale-lock takeover.
 */
import { UserError } from '@baton/kernel';
import { expect, it } from 'vitest';
import { delay, describeThrown, isNamedBatonError, rejectionOf } from './conformance-errors.js';
import type { MemoryStoreConformanceContext } from './memory-store-conformance-support.js';

/** Holds lock `name` of `store` until the returned `release` is called. */
async function hold(
  store: { withLock<T>(name: string, fn: () => Promise<T>): Promise<T> },
  name: string,
) {
  let release!: () => void;
  let taken!: () => void;
  const isTaken = new Promise<void>((r) => (taken = r));
  const done = store.withLock(name, () => {
    taken();
    return new Promise<void>((r) => (release = r));
  });
  await isTaken;
  return {
    release: async () => {
      release();
      await done;
    },
  };
}

export function registerMemoryLockCases(c: MemoryStoreConformanceContext): void {
  const { timeout, options } = c;

  it(
    'withLock runs one holder at a time and passes the result through',
    async () => {
      const store = await c.open();
      let inside = 0;
      let maxInside = 0;
      const ran: string[] = [];
      const results = await Promise.all(
        ['a', 'b', 'c', 'd'].map((who) =>
          store.withLock('flush', async () => {
            inside++;
            maxInside = Math.max(maxInside, inside);
            await delay(25);
            ran.push(who);
            inside--;
            return `${who}!`;
          }),
        ),
      );
      expect(maxInside).toBe(1);
      expect(ran.sort()).toEqual(['a', 'b', 'c', 'd']);
      expect(results).toEqual(['a!', 'b!', 'c!', 'd!']);
    },
    timeout,
  );

  it(
    'withLock releases when fn rejects or throws, passing the same error on',
    async () => {
      const store = await c.open();
      const boom = new Error('boom');
      expect(
        await rejectionOf(
          store.withLock('flush', async () => {
            throw boom;
          }),
          'a rejected fn',
        ),
      ).toBe(boom);
      expect(await store.withLock('flush', async () => 'again', { timeoutMs: 1_000 })).toBe(
        'again',
      );
      const sync = new Error('sync');
      const thrower = (() => {
        throw sync;
      }) as () => Promise<never>;
      let outcome: unknown;
      try {
        outcome = await rejectionOf(store.withLock('flush', thrower), 'a throwing fn');
      } catch (error) {
        outcome = error;
      }
      expect(outcome).toBe(sync);
      expect(await store.withLock('flush', async () => 'free', { timeoutMs: 1_000 })).toBe('free');
    },
    timeout,
  );

  it(
    'withLock waits up to timeoutMs, then rejects with MemoryLockTimeoutError; other names are free',
    async () => {
      const store = await c.open();
      const held = await hold(store, 'flush');
      let ran = false;
      const t0 = Date.now();
      const error = await rejectionOf(
        store.withLock(
          'flush',
          async () => {
            ran = true;
          },
          { timeoutMs: 200 },
        ),
        'a lock held elsewhere',
      );
      const waited = Date.now() - t0;
      expect(isNamedBatonError(error, 'MemoryLockTimeoutError'), describeThrown(error)).toBe(true);
      expect((error as { lockName?: string }).lockName).toBe('flush');
      expect(ran).toBe(false);
      expect(waited).toBeGreaterThanOrEqual(150);
      expect(await store.withLock('handbook', async () => 'free', { timeoutMs: 500 })).toBe('free');
      await held.release();
      expect(await store.withLock('flush', async () => 'mine', { timeoutMs: 1_000 })).toBe('mine');
    },
    timeout,
  );

  it(
    'withLock refuses names other than 1-64 letters, digits, - and _ with a UserError',
    async () => {
      const store = await c.open();
      for (const bad of ['', 'bad name!', 'a/b', '../up', 'x'.repeat(65), 'dot.ted', 'ünï']) {
        let ran = false;
        const error = await rejectionOf(
          store.withLock(bad, async () => {
            ran = true;
          }),
          `lock name ${JSON.stringify(bad)}`,
        );
        expect(
          UserError.isInstance(error),
          `${JSON.stringify(bad)} → ${describeThrown(error)}`,
        ).toBe(true);
        expect(ran).toBe(false);
      }
      for (const good of ['a', 'A-b_9', 'x'.repeat(64)])
        expect(await store.withLock(good, async () => good)).toBe(good);
    },
    timeout,
  );

  it(
    'a waiting withLock stops with its signal’s reason and never runs fn',
    async () => {
      const store = await c.open();
      const held = await hold(store, 'flush');
      const ac = new AbortController();
      const reason = new Error('stop waiting');
      let ran = false;
      const waiting = store.withLock(
        'flush',
        async () => {
          ran = true;
        },
        { signal: ac.signal, timeoutMs: 3_000 },
      );
      setTimeout(() => ac.abort(reason), 60);
      expect(await rejectionOf(waiting, 'an aborted wait')).toBe(reason);
      await held.release();
      await delay(50);
      expect(ran).toBe(false);
      expect(await store.withLock('flush', async () => 'free', { timeoutMs: 1_000 })).toBe('free');
    },
    timeout,
  );

  if (options.reopen)
    it(
      'withLock excludes across two handles: 2 × 15 locked read-increment-writes count to 30',
      async () => {
        const store = await c.open();
        const other = await c.reopen(store);
        const worker = async (s: typeof store) => {
          for (let i = 0; i < 15; i++)
            await s.withLock('flush', async () => {
              const n = Number((await s.readText('counter.txt')) ?? '0');
              await delay(2);
              await s.writeText('counter.txt', String(n + 1));
            });
        };
        await Promise.all([worker(store), worker(other)]);
        expect(await store.readText('counter.txt')).toBe('30');
      },
      timeout,
    );

  const stale = options.staleLock;
  if (stale) {
    it(
      'takes over a lock left by a crashed holder once it is stale',
      async () => {
        const store = await c.open();
        await stale.abandon(store, 'flush');
        expect(
          await store.withLock('flush', async () => 'taken', { timeoutMs: stale.staleMs * 3 }),
        ).toBe('taken');
      },
      timeout + stale.staleMs * 3,
    );

    if (options.reopen)
      it(
        'a live holder keeps its lock past the stale time (it refreshes it)',
        async () => {
          const store = await c.open();
          const other = await c.reopen(store);
          let releasedAt = 0;
          const holding = store.withLock('flush', async () => {
            await delay(stale.staleMs * 2);
            releasedAt = Date.now();
          });
          await delay(20);
          const gotAt = await other.withLock('flush', async () => Date.now(), {
            timeoutMs: stale.staleMs * 4,
          });
          await holding;
          expect(releasedAt).toBeGreaterThan(0);
          expect(gotAt).toBeGreaterThanOrEqual(releasedAt);
        },
        timeout + stale.staleMs * 4,
      );
  }
}
