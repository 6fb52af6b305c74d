/**
 * `SqliteMemoryStore`: a `MemoryStore` (v1) in SQLite through `better-sqlite3` — one database
 * file holds any number of stores (by `storeId`). Every write is one immediate transaction; a
 * lock is a lease row (owner token, expiry) taken in an immediate transaction, refreshed while
 * held and taken over once expired (a crashed holder).
 *
 * Schema (version 1): `baton_memory_files(store_id, path, content, modified_at_ms)` keyed by
 * `(store_id, path)` and `baton_memory_locks(store_id, name, token, expires_at_ms)` keyed by
 * `(store_id, name)`; their versions are kept in `baton_schema` like `SqliteSession`'s tables.
 */
import { randomBytes } from 'node:crypto';
import { UserError } from '@baton/kernel';
import {
  enableWal,
  MissingDependencyError,
  openSqliteDatabase,
  type SqliteDatabase,
} from '../sqlite-driver.js';
import {
  checkLockName,
  type MemoryEntry,
  type MemoryLockOptions,
  MemoryLockTimeoutError,
  type MemoryStore,
  MemoryStoreError,
  normalizeMemoryPath,
  sleep,
} from './memory-store.js';

/** The schema version of the memory tables this package writes. */
export const SQLITE_MEMORY_SCHEMA_VERSION = 1;
const FILES = 'baton_memory_files';
const LOCKS = 'baton_memory_locks';

/** Options of {@link SqliteMemoryStore}. Give exactly one of `path` and `db`. */
export interface SqliteMemoryStoreOptions {
  /**
   * A database file (its folder must exist) or `':memory:'`. Opened in WAL mode with a busy
   * timeout; closed by `close()`. Needs the optional peer dependency `better-sqlite3`.
   */
  path?: string;
  /** An open `better-sqlite3` database (WAL and a busy timeout recommended); `close()` leaves it open. */
  db?: SqliteDatabase;
  /** Which store of the database this is. Default `'default'`. */
  storeId?: string;
  /** A lock not refreshed for this long (ms) is taken over; refreshed every `lockStaleMs / 2`. Default 10 000. */
  lockStaleMs?: number;
  /** How long (ms) a write waits for another process's transaction. Default 5 000. Only for `path`. */
  busyTimeoutMs?: number;
}

/** A memory store in SQLite (see the module doc). */
export class SqliteMemoryStore implements MemoryStore {
  readonly specificationVersion = 'v1' as const;
  readonly id: string;
  readonly storeId: string;
  private readonly db: SqliteDatabase;
  private readonly ownsDb: boolean;
  private readonly staleMs: number;
  private readonly s: ReturnType<typeof prepare>;

  /**
   * @throws UserError for bad options; MissingDependencyError for a `path` when `better-sqlite3`
   *   is not installed (`npm install better-sqlite3`); MemoryStoreError when the file cannot be opened or its
   *   tables come from a newer version.
   */
  constructor(options: SqliteMemoryStoreOptions) {
    if ((options.path === undefined) === (options.db === undefined))
      throw new UserError(
        "SqliteMemoryStore needs exactly one of `path` (a file path or ':memory:') and `db` (an open better-sqlite3 Database).",
      );
    this.storeId = options.storeId ?? 'default';
    if (typeof this.storeId !== 'string' || this.storeId === '')
      throw new UserError('SqliteMemoryStore `storeId` must be a non-empty string.');
    this.staleMs = options.lockStaleMs ?? 10_000;
    if (!(this.staleMs >= 100))
      throw new UserError(`SqliteMemoryStore lockStaleMs must be at least 100 ms.`);
    this.id = `sqlite:${options.path ?? 'db'}#${this.storeId}`;
    this.ownsDb = options.db === undefined;
    let db: SqliteDatabase | undefined = options.db;
    try {
      db ??= openSqliteDatabase(
        options.path!,
        { timeout: options.busyTimeoutMs ?? 5000 },
        'SqliteMemoryStore',
      );
      if (this.ownsDb && options.path !== ':memory:') enableWal(db, options.busyTimeoutMs ?? 5000);
      ensureSchema(db, this.id);
      this.s = prepare(db);
      this.db = db;
    } catch (error) {
      if (this.ownsDb) db?.close();
      if (MemoryStoreError.isInstance(error) || MissingDependencyError.isInstance(error))
        throw error;
      throw new MemoryStoreError(
        `SqliteMemoryStore could not open "${options.path ?? 'the given database'}": ${(error as Error).message}.`,
        { storeId: this.id, cause: error },
      );
    }
  }

  private guard<T>(what: string, path: string | undefined, fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      if (MemoryStoreError.isInstance(error) || UserError.isInstance(error)) throw error;
      throw new MemoryStoreError(
        `Memory store "${this.id}" could not ${what}${path ? ` "${path}"` : ''}: ${(error as Error).message}.${(error as { code?: string }).code === 'SQLITE_BUSY' ? ' Another process held the database too long: raise busyTimeoutMs.' : ''}`,
        { storeId: this.id, path, cause: error },
      );
    }
  }

  async readText(path: string): Promise<string | undefined> {
    const p = normalizeMemoryPath(path);
    return this.guard('read', p, () => this.s.read.get(this.storeId, p) as string | undefined);
  }

  async writeText(path: string, text: string): Promise<void> {
    const p = normalizeMemoryPath(path);
    this.guard('write', p, () => this.s.write.run(this.storeId, p, text, Date.now()));
  }

  async appendText(path: string, text: string): Promise<void> {
    const p = normalizeMemoryPath(path);
    this.guard('append to', p, () => this.s.append.run(this.storeId, p, text, Date.now()));
  }

  async list(dir: string): Promise<MemoryEntry[]> {
    const base = normalizeMemoryPath(dir, true);
    return this.guard('list', base || '.', () => {
      const rows = (
        base === ''
          ? this.s.listAll.all(this.storeId)
          : this.s.listUnder.all(this.storeId, `${base}/`, `${base}0`)
      ) as { path: string; size: number; modified_at_ms: number }[];
      return rows.map((r) => ({ path: r.path, sizeBytes: r.size, modifiedAtMs: r.modified_at_ms }));
    });
  }

  async remove(path: string): Promise<void> {
    const p = normalizeMemoryPath(path);
    this.guard('remove', p, () => this.s.remove.run(this.storeId, p));
  }

  async withLock<T>(
    name: string,
    fn: () => Promise<T>,
    options: MemoryLockOptions = {},
  ): Promise<T> {
    checkLockName(name);
    const timeoutMs = options.timeoutMs ?? 60_000;
    const token = randomBytes(12).toString('hex');
    const deadline = Date.now() + timeoutMs;
    const acquire = this.db.transaction(() => {
      const now = Date.now();
      const row = this.s.lockGet.get(this.storeId, name) as { expires_at_ms: number } | undefined;
      if (row && row.expires_at_ms > now) return false;
      this.s.lockPut.run(this.storeId, name, token, now + this.staleMs);
      return true;
    });
    for (let wait = 20; ; wait = Math.min(wait * 2, 250)) {
      if (this.guard('take the lock', name, () => acquire.immediate())) break;
      if (Date.now() >= deadline) throw new MemoryLockTimeoutError(this.id, name, timeoutMs);
      await sleep(Math.min(wait, Math.max(1, deadline - Date.now())), options.signal);
    }
    let lost = false;
    const refresh = setInterval(
      () => {
        try {
          const changed = this.s.lockRefresh.run(
            Date.now() + this.staleMs,
            this.storeId,
            name,
            token,
          );
          if (changed.changes === 0) lost = true;
        } catch {
          // A busy database delays a refresh; the next one retries.
        }
      },
      Math.max(50, Math.floor(this.staleMs / 2)),
    );
    refresh.unref?.();
    try {
      return await fn();
    } finally {
      clearInterval(refresh);
      try {
        this.s.lockDelete.run(this.storeId, name, token);
      } catch {
        // Expires by itself.
      }
      if (lost)
        // biome-ignore lint/correctness/noUnsafeFinally: a lost lock must be reported over the result.
        throw new MemoryStoreError(
          `Memory store "${this.id}" lost its lock "${name}" while holding it (it expired and was taken over): another process may have written at the same time. Run the operation again, or raise lockStaleMs.`,
          { storeId: this.id },
        );
    }
  }

  /** Closes the database if this store opened it; idempotent. */
  close(): void {
    if (this.ownsDb && this.db.open) this.db.close();
  }
}

function ensureSchema(db: SqliteDatabase, id: string): void {
  const setup = db.transaction(() => {
    db.exec(
      'CREATE TABLE IF NOT EXISTS baton_schema (table_name TEXT PRIMARY KEY, schema_version INTEGER NOT NULL)',
    );
    db.exec(`CREATE TABLE IF NOT EXISTS ${FILES} (
      store_id TEXT NOT NULL, path TEXT NOT NULL, content TEXT NOT NULL,
      modified_at_ms INTEGER NOT NULL, PRIMARY KEY (store_id, path))`);
    db.exec(`CREATE TABLE IF NOT EXISTS ${LOCKS} (
      store_id TEXT NOT NULL, name TEXT NOT NULL, token TEXT NOT NULL,
      expires_at_ms INTEGER NOT NULL, PRIMARY KEY (store_id, name))`);
    const put = db.prepare(
      'INSERT OR IGNORE INTO baton_schema (table_name, schema_version) VALUES (?, ?)',
    );
    put.run(FILES, SQLITE_MEMORY_SCHEMA_VERSION);
    put.run(LOCKS, SQLITE_MEMORY_SCHEMA_VERSION);
    return db
      .prepare(
        `SELECT MAX(schema_version) FROM baton_schema WHERE table_name IN ('${FILES}', '${LOCKS}')`,
      )
      .pluck()
      .get() as number;
  });
  const version = setup.immediate();
  if (version > SQLITE_MEMORY_SCHEMA_VERSION)
    throw new MemoryStoreError(
      `The memory tables of this SQLite database have schema version ${version}, but this @baton/memory reads up to version ${SQLITE_MEMORY_SCHEMA_VERSION}. Upgrade @baton/memory.`,
      { storeId: id },
    );
}

function prepare(db: SqliteDatabase) {
  return {
    read: db.prepare(`SELECT content FROM ${FILES} WHERE store_id = ? AND path = ?`).pluck(),
    write: db.prepare(
      `INSERT INTO ${FILES} (store_id, path, content, modified_at_ms) VALUES (?, ?, ?, ?)
       ON CONFLICT (store_id, path) DO UPDATE SET content = excluded.content, modified_at_ms = excluded.modified_at_ms`,
    ),
    append: db.prepare(
      `INSERT INTO ${FILES} (store_id, path, content, modified_at_ms) VALUES (?, ?, ?, ?)
       ON CONFLICT (store_id, path) DO UPDATE SET content = content || excluded.content, modified_at_ms = excluded.modified_at_ms`,
    ),
    listAll: db.prepare(
      `SELECT path, length(CAST(content AS BLOB)) AS size, modified_at_ms FROM ${FILES} WHERE store_id = ? ORDER BY path`,
    ),
    listUnder: db.prepare(
      `SELECT path, length(CAST(content AS BLOB)) AS size, modified_at_ms FROM ${FILES} WHERE store_id = ? AND path >= ? AND path < ? ORDER BY path`,
    ),
    remove: db.prepare(`DELETE FROM ${FILES} WHERE store_id = ? AND path = ?`),
    lockGet: db.prepare(`SELECT expires_at_ms FROM ${LOCKS} WHERE store_id = ? AND name = ?`),
    lockPut: db.prepare(
      `INSERT INTO ${LOCKS} (store_id, name, token, expires_at_ms) VALUES (?, ?, ?, ?)
       ON CONFLICT (store_id, name) DO UPDATE SET token = excluded.token, expires_at_ms = excluded.expires_at_ms`,
    ),
    lockRefresh: db.prepare(
      `UPDATE ${LOCKS} SET expires_at_ms = ? WHERE store_id = ? AND name = ? AND token = ?`,
    ),
    lockDelete: db.prepare(`DELETE FROM ${LOCKS} WHERE store_id = ? AND name = ? AND token = ?`),
  };
}
