/**
 * Both built-in memory stores against the `MemoryStore` v1 kit of `@baton/testing/vitest`, each
 * with a second handle on the same storage (what another process opens) and stale-lock
 * takeover (a lock directory / lease row left as a crashed holder leaves it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirectoryMemoryStore, SqliteMemoryStore } from '@baton/memory';
import { describeMemoryStoreConformance, type MemoryStoreLike } from '@baton/testing/vitest';
import { afterAll } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'baton-memstore-kit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const DIR_STALE_MS = 2_000; // DirectoryMemoryStore's minimum
describeMemoryStoreConformance(
  'DirectoryMemoryStore',
  () => new DirectoryMemoryStore({ root: join(dir, `d${++n}`), lockStaleMs: DIR_STALE_MS }),
  {
    reopen: (store) =>
      new DirectoryMemoryStore({
        root: (store as DirectoryMemoryStore).root,
        lockStaleMs: DIR_STALE_MS,
      }),
    staleLock: {
      staleMs: DIR_STALE_MS,
      // proper-lockfile's lock directory, last refreshed a minute ago.
      abandon: async (store: MemoryStoreLike, name: string) => {
        const lock = join((store as DirectoryMemoryStore).root, '.locks', `${name}.lock`);
        await mkdir(lock, { recursive: true });
        const old = new Date(Date.now() - 60_000);
        await utimes(lock, old, old);
      },
    },
  },
);

const SQLITE_STALE_MS = 1_000; // refreshed every 500 ms: room for a busy machine
const sqlitePaths = new WeakMap<object, string>();
const openSqlite = (path: string) => {
  const store = new SqliteMemoryStore({ path, lockStaleMs: SQLITE_STALE_MS });
  sqlitePaths.set(store, path);
  return store;
};
describeMemoryStoreConformance('SqliteMemoryStore', () => openSqlite(join(dir, `s${++n}.db`)), {
  reopen: (store) => openSqlite(sqlitePaths.get(store)!),
  staleLock: {
    staleMs: SQLITE_STALE_MS,
    // A lease row whose holder stopped refreshing it (expired a minute ago).
    abandon: async (store: MemoryStoreLike, name: string) => {
      (store as any).db
        .prepare(
          `INSERT OR REPLACE INTO baton_memory_locks (store_id, name, token, expires_at_ms) VALUES ('default', ?, 'crashed', ?)`,
        )
        .run(name, Date.now() - 60_000);
    },
  },
});

// Stores of one database apart by storeId share nothing: the kit on the second store of a file.
describeMemoryStoreConformance('SqliteMemoryStore (second storeId of a shared database)', () => {
  const path = join(dir, `shared${++n}.db`);
  new SqliteMemoryStore({ path, storeId: 'other' }).writeText('memories/a.md', 'not mine');
  return new SqliteMemoryStore({ path, storeId: 'mine' });
});
