/**
 * `SqliteSession`: a `Session` (v2) persisted in SQLite through `better-sqlite3`, embedded in the
 * process — no server. Safe for several processes appending to one session id of one file.
 */
import type { AddItemsOptions, Item, SessionV2 } from '@baton/kernel';
import {
  BatonError,
  readAddItemsArgs,
  readItemLimit,
  SessionError,
  UserError,
} from '@baton/kernel';
import {
  enableWal,
  openSqliteDatabase,
  type SqliteDatabase,
  type SqliteTransaction,
} from './sqlite-driver.js';
import {
  appendsTable,
  checkTableName,
  DEFAULT_SQLITE_SESSION_TABLE,
  decodeRow,
  encodeItem,
  ensureSchema,
  type ItemRow,
  SQLITE_SESSION_SCHEMA_VERSION,
} from './sqlite-schema.js';
import { prepareReplaceOldest } from './sqlite-session-rewrite.js';

/** Options of {@link SqliteSession}. Give exactly one of `path` and `db`. */
export interface SqliteSessionOptions {
  /** The conversation's id; rows of other ids in the same table are never touched. */
  sessionId: string;
  /**
   * A database file path (its folder must exist; the file is created when missing) or
   * `':memory:'` for a private in-memory database. The session opens it, sets WAL mode for
   * files and a busy timeout, and closes it in {@link SqliteSession.close}. Needs the optional
   * peer dependency `better-sqlite3` installed (`npm install better-sqlite3`).
   */
  path?: string;
  /**
   * An open `better-sqlite3` `Database` to use instead of `path`. Its pragmas (journal mode,
   * busy timeout) are left as the caller set them — use WAL and a busy timeout for files shared
   * by several processes — and `close()` does not close it.
   */
  db?: SqliteDatabase;
  /** The items table (letters, digits, underscores); default `'baton_session_items'`. */
  tableName?: string;
  /** How long (ms) a write waits for another process's lock before failing; default 5000. Only for `path`. */
  busyTimeoutMs?: number;
  /**
   * What reads do with a row that holds no valid item (not JSON, or not an item of the
   * vocabulary): `'throw'` (default) a `SessionError` naming the row id; `'skip'` leaves it out of
   * `getItems` (so `getItems(n)` may return fewer than `n`) and `popItem` deletes it on its way
   * to the newest valid item. Rows of a newer schema version always throw.
   */
  onInvalidItem?: 'throw' | 'skip';
}

/**
 * A `Session` stored in one SQLite table, one row per item (OpenAI Responses API item JSON)
 * with the schema version it was written with (see `sqlite-schema.ts`).
 *
 * - `addItems` is one `BEGIN IMMEDIATE` transaction: all items of a call are stored, in order and
 *   next to each other, or none are — also when another process appends to the same session id.
 *   With an `appendId` (`Session` v2) the same transaction records the id in `<table>_appends`;
 *   an id already recorded for this session id stores nothing. `clearSession` deletes the ids too.
 * - Every row read is checked with the kernel's item schemas (see `onInvalidItem`).
 * - Calls are synchronous inside (`better-sqlite3`); waiting for another process's lock blocks the
 *   event loop up to `busyTimeoutMs`.
 *
 * @throws UserError from the constructor for bad options (no or both of `path`/`db`, empty
 *   `sessionId`, bad `tableName`).
 * @throws MissingDependencyError from the constructor for a `path` when `better-sqlite3` is not
 *   installed (an optional peer dependency: `npm install better-sqlite3`).
 * @throws SessionError from the constructor when the file cannot be opened or its table was made
 *   by a newer version; from every method when SQLite fails (operation and key
 *   `<tableName>:<sessionId>` set) or a stored row is invalid or newer (the message names the row id).
 */
export class SqliteSession implements SessionV2 {
  readonly specificationVersion = 'v2' as const;
  readonly sessionId: string;
  /** The items table name. */
  readonly tableName: string;
  private readonly db: SqliteDatabase;
  private readonly ownsDb: boolean;
  private readonly key: string;
  private readonly statements: ReturnType<typeof prepareStatements>;
  private readonly addTx: SqliteTransaction<(texts: string[], appendId?: string) => void>;
  private readonly popTx: SqliteTransaction<() => Item | undefined>;
  private readonly clearTx: SqliteTransaction<() => void>;
  private readonly skipInvalid: boolean;
  private readonly replaceTx: ReturnType<typeof prepareReplaceOldest>;
  /** History rewrite v1 (atomic compare-and-swap of the oldest items, for `CompactionSession`). */
  readonly historyRewriteVersion = 'v1' as const;

  constructor(options: SqliteSessionOptions) {
    if (typeof options.sessionId !== 'string' || options.sessionId === '') {
      throw new UserError('SqliteSession needs a non-empty `sessionId` string.');
    }
    if ((options.path === undefined) === (options.db === undefined)) {
      throw new UserError(
        "SqliteSession needs exactly one of `path` (a file path or ':memory:') and `db` (an open better-sqlite3 Database).",
      );
    }
    if (options.onInvalidItem !== undefined && !['throw', 'skip'].includes(options.onInvalidItem))
      throw new UserError(
        `SqliteSession onInvalidItem must be 'throw' or 'skip', got ${String(options.onInvalidItem)}.`,
      );
    this.skipInvalid = options.onInvalidItem === 'skip';
    this.sessionId = options.sessionId;
    this.tableName = options.tableName ?? DEFAULT_SQLITE_SESSION_TABLE;
    checkTableName(this.tableName);
    this.key = `${this.tableName}:${this.sessionId}`;
    this.ownsDb = options.db === undefined;
    this.db =
      options.db ??
      this.guard('open', () => openDatabase(options.path!, options.busyTimeoutMs ?? 5000));
    try {
      this.guard('open', () => ensureSchema(this.db, this.tableName, this.key));
      this.statements = prepareStatements(this.db, this.tableName);
    } catch (error) {
      if (this.ownsDb) this.db.close();
      throw error;
    }
    const s = this.statements;
    this.addTx = this.db.transaction((texts: string[], appendId?: string) => {
      const now = Date.now();
      if (appendId !== undefined && s.claimAppend.run(this.sessionId, appendId, now).changes === 0)
        return;
      for (const text of texts)
        s.insert.run(this.sessionId, SQLITE_SESSION_SCHEMA_VERSION, text, now);
    });
    this.replaceTx = prepareReplaceOldest(this.db, this.tableName, this.sessionId);
    this.popTx = this.db.transaction(() => {
      const ctx = { tableName: this.tableName, operation: 'popItem', key: this.key };
      for (;;) {
        const row = s.newest.get(this.sessionId) as ItemRow | undefined;
        if (row === undefined) return undefined;
        const item = decodeRow(row, ctx);
        // A corrupt newest row is kept and reported (unless invalid rows are skipped).
        if (item instanceof SessionError && !this.skipInvalid) throw item;
        s.deleteRow.run(row.id);
        if (!(item instanceof SessionError)) return item;
      }
    });
    this.clearTx = this.db.transaction(() => {
      s.clear.run(this.sessionId);
      s.clearAppends.run(this.sessionId);
    });
  }

  /**
   * The newest `limit` items, oldest first (all when `limit` is undefined; none when `limit <= 0`).
   * @throws UserError for a `limit` that is `NaN` or not a number (kernel `readItemLimit`).
   */
  async getItems(limit?: number): Promise<Item[]> {
    const n = readItemLimit('SqliteSession getItems', limit);
    return this.guard('getItems', () => {
      if (n === 0) return [];
      const rows = (
        n === undefined
          ? this.statements.all.all(this.sessionId)
          : this.statements.newestN.all(this.sessionId, n).reverse()
      ) as ItemRow[];
      const ctx = { tableName: this.tableName, operation: 'getItems', key: this.key };
      const items: Item[] = [];
      for (const row of rows) {
        const item = decodeRow(row, ctx);
        if (!(item instanceof SessionError)) items.push(item);
        else if (!this.skipInvalid) throw item;
      }
      return items;
    });
  }

  /**
   * Appends `items` in one immediate transaction: all or nothing, never interleaved. With
   * `options.appendId`, at most once per id for this session id (`Session` v2).
   * @throws UserError for an `appendId` that is not a non-empty string, or `items` not an array.
   * @throws SessionError for an item that is not JSON data or not a valid item (nothing written).
   */
  async addItems(items: Item[], options?: AddItemsOptions): Promise<void> {
    const appendId = readAddItemsArgs('SqliteSession addItems', items, options);
    if (items.length === 0) return;
    const ctx = { operation: 'addItems', key: this.key };
    const texts = items.map((item, i) => encodeItem(item, i, ctx));
    this.guard('addItems', () => this.addTx.immediate(texts, appendId));
  }

  /**
   * Removes and returns the newest item (`undefined` when empty). A corrupt newest row is kept and
   * reported — or, with `onInvalidItem: 'skip'`, deleted on the way to the newest valid item.
   */
  async popItem(): Promise<Item | undefined> {
    return this.guard('popItem', () => this.popTx.immediate());
  }

  /**
   * Replaces the oldest `expected.length` items with `replacement` in one immediate transaction
   * if they still equal `expected` (by JSON); `false` and no change otherwise. Items appended
   * meanwhile, by any process, stay after the replacement (see `sqlite-session-rewrite.ts`).
   * Applied append ids are kept (a retried append stays a no-op).
   * @throws UserError for a replacement longer than `expected`; SessionError when SQLite fails or
   *   a replacement item is not JSON data or not a valid item (nothing changed).
   */
  async replaceOldestItems(
    expected: readonly Item[],
    replacement: readonly Item[],
  ): Promise<boolean> {
    const ctx = { operation: 'replaceOldestItems', key: this.key };
    const texts = replacement.map((item, i) => encodeItem(item, i, ctx));
    return this.guard('replaceOldestItems', () => this.replaceTx.immediate(expected, texts));
  }

  /** Deletes every row of this session id, and its applied append ids. */
  async clearSession(): Promise<void> {
    this.guard('clearSession', () => this.clearTx.immediate());
  }

  /** Closes the database if this session opened it (from `path`); a no-op otherwise and when called again. */
  close(): void {
    if (this.ownsDb && this.db.open) this.db.close();
  }

  /** Runs a SQLite call and turns any non-Baton error into a `SessionError` that says what to do. */
  private guard<T>(operation: string, fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      if (BatonError.isInstance(error)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      const code = (error as { code?: string }).code;
      const hint =
        code === 'SQLITE_BUSY'
          ? 'Another process held the database lock too long: raise busyTimeoutMs or shorten its transactions.'
          : this.db && !this.db.open
            ? 'The database is closed: create a new SqliteSession.'
            : 'Check that the database file is readable and writable and not corrupted.';
      throw new SessionError(
        `SQLite ${operation} failed for session key "${this.key}": ${message}. ${hint}`,
        {
          operation,
          key: this.key,
          cause: error,
        },
      );
    }
  }
}

function openDatabase(path: string, busyTimeoutMs: number): SqliteDatabase {
  const db = openSqliteDatabase(path, { timeout: busyTimeoutMs }, 'SqliteSession');
  try {
    if (path !== ':memory:' && path !== '') enableWal(db, busyTimeoutMs);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

function prepareStatements(db: SqliteDatabase, table: string) {
  const columns = 'id, schema_version, item';
  return {
    insert: db.prepare(
      `INSERT INTO ${table} (session_id, schema_version, item, created_at_ms) VALUES (?, ?, ?, ?)`,
    ),
    all: db.prepare(`SELECT ${columns} FROM ${table} WHERE session_id = ? ORDER BY id ASC`),
    newestN: db.prepare(
      `SELECT ${columns} FROM ${table} WHERE session_id = ? ORDER BY id DESC LIMIT ?`,
    ),
    newest: db.prepare(
      `SELECT ${columns} FROM ${table} WHERE session_id = ? ORDER BY id DESC LIMIT 1`,
    ),
    deleteRow: db.prepare(`DELETE FROM ${table} WHERE id = ?`),
    clear: db.prepare(`DELETE FROM ${table} WHERE session_id = ?`),
    claimAppend: db.prepare(
      `INSERT OR IGNORE INTO ${appendsTable(table)} (session_id, append_id, created_at_ms) VALUES (?, ?, ?)`,
    ),
    clearAppends: db.prepare(`DELETE FROM ${appendsTable(table)} WHERE session_id = ?`),
  };
}
