/**
 * The SQLite driver: `better-sqlite3`, an optional peer dependency of `@baton/memory`, loaded
 * only when a `SqliteSession` or `SqliteMemoryStore` opens a database from a `path` — so the rest
 * of the package (compaction, patches, long-term memory on a folder) installs and runs without
 * it, and without its native build. The types here are structural: a project that does not use
 * SQLite needs neither `better-sqlite3` nor `@types/better-sqlite3` to compile against Baton's
 * declarations, and an open better-sqlite3 `Database` is assignable to {@link SqliteDatabase}.
 */
import { createRequire } from 'node:module';
import { BatonError } from '@baton/kernel';

/** The part of a better-sqlite3 `Statement` Baton uses. */
export interface SqliteStatement {
  run(...params: any[]): { changes: number; lastInsertRowid: number | bigint };
  get(...params: any[]): unknown;
  all(...params: any[]): unknown[];
  pluck(toggleState?: boolean): this;
}

type VariableArgFunction = (...params: any[]) => unknown;
/** The parameters of `F`, written as better-sqlite3's declarations write them (so the two relate). */
type ArgumentTypes<F extends VariableArgFunction> = F extends (...args: infer A) => unknown
  ? A
  : never;

/** A better-sqlite3 transaction function (`db.transaction(fn)`). */
export interface SqliteTransaction<F extends VariableArgFunction> {
  (...params: ArgumentTypes<F>): ReturnType<F>;
  /** Runs in `BEGIN IMMEDIATE` (takes the write lock first). */
  immediate(...params: ArgumentTypes<F>): ReturnType<F>;
}

/**
 * An open better-sqlite3 `Database` (`new Database(file)` of the `better-sqlite3` package, v12),
 * as the `db` option of `SqliteSession` and `SqliteMemoryStore` takes it.
 */
export interface SqliteDatabase {
  readonly open: boolean;
  prepare(source: string): SqliteStatement;
  transaction<F extends VariableArgFunction>(fn: F): SqliteTransaction<F>;
  exec(source: string): unknown;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  close(): unknown;
}

/**
 * An optional peer dependency a feature needs is not installed (or cannot load, e.g. a native
 * module built for another Node version). `dependency` is its npm name; the message says how to
 * install it.
 */
export class MissingDependencyError extends BatonError {
  readonly dependency: string;
  constructor(message: string, fields: { dependency: string; cause?: unknown }) {
    super(message, { cause: fields.cause });
    this.dependency = fields.dependency;
  }
}

type DatabaseConstructor = new (path: string, options?: { timeout?: number }) => SqliteDatabase;
let driver: DatabaseConstructor | undefined;

/**
 * Opens `path` with better-sqlite3 (loaded on first use).
 * @throws MissingDependencyError when `better-sqlite3` is not installed or does not load.
 */
export function openSqliteDatabase(
  path: string,
  options: { timeout: number },
  user: string,
): SqliteDatabase {
  driver ??= loadDriver(user);
  return new driver(path, options);
}

function loadDriver(user: string): DatabaseConstructor {
  try {
    return createRequire(import.meta.url)('better-sqlite3') as DatabaseConstructor;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const missing =
      code === 'MODULE_NOT_FOUND' && /['"]better-sqlite3['"]/.test((error as Error).message);
    throw new MissingDependencyError(
      missing
        ? `${user} needs the SQLite driver better-sqlite3, an optional peer dependency of @baton/memory: install it with \`npm install better-sqlite3\` (or pass an open database as \`db\`).`
        : `${user} could not load better-sqlite3 (${(error as Error).message}). Reinstall it for this Node version: \`npm rebuild better-sqlite3\`.`,
      { dependency: 'better-sqlite3', cause: error },
    );
  }
}

/**
 * Puts a file database in WAL mode (`PRAGMA journal_mode = WAL`), waiting up to `budgetMs` for
 * other connections. The conversion needs exclusive access and SQLite does not run the busy
 * handler for it (sqlite.org/pragma.html#pragma_journal_mode; seen when several processes open
 * one fresh file at once), so `busy_timeout` does not cover it: the mode is read first (WAL is a
 * property of the file: after the first open there is nothing to do), and a `SQLITE_BUSY`
 * conversion is retried with backoff (1, 2, 4 … 50 ms, blocking like the driver itself) until
 * the file is WAL, by this connection or another one.
 * @throws the driver's `SQLITE_BUSY` error when the budget runs out; other errors at once.
 */
export function enableWal(db: SqliteDatabase, budgetMs: number): void {
  const deadline = Date.now() + budgetMs;
  for (let delay = 1; ; delay = Math.min(delay * 2, 50)) {
    try {
      if (String(db.pragma('journal_mode', { simple: true })).toLowerCase() === 'wal') return;
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline)
        throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, delay);
    }
  }
}
