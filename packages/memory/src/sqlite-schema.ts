/**
 * The storage format of `SqliteSession`: one items table (one row per item, each row carrying
 * the schema version it was written with), a table of applied append ids (`Session` v2), and a
 * `baton_schema` table holding the version of each Baton table. Versions only grow; a reader
 * refuses rows and tables newer than it knows.
 *
 * Version history (one line per version and table):
 * - items 1: `<table>(id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, schema_version INTEGER,
 *      item TEXT, created_at_ms INTEGER)`; `item` is the JSON of one Responses API item, valid
 *      against `@baton/kernel/items.schema.json` (JSON Schema 2020-12, `$defs/Item`).
 * - appends 1 (@baton/memory 0.2.0): `<table>_appends(session_id TEXT, append_id TEXT,
 *      created_at_ms INTEGER, PRIMARY KEY (session_id, append_id)) WITHOUT ROWID`. Older readers
 *      ignore it (they append without ids, as v1).
 */
import type { Item } from '@baton/kernel';
import { findItemIssue, SessionError, UserError } from '@baton/kernel';
import type { SqliteDatabase } from './sqlite-driver.js';

/** The schema version this package writes (for the table and for each row). */
export const SQLITE_SESSION_SCHEMA_VERSION = 1;

/** The schema version of the applied-append-ids table this package writes. */
const APPENDS_SCHEMA_VERSION = 1;

/** The name of the applied-append-ids table of an items table. */
export const appendsTable = (tableName: string) => `${tableName}_appends`;

/** The default items table name. */
export const DEFAULT_SQLITE_SESSION_TABLE = 'baton_session_items';

const META_TABLE = 'baton_schema';
const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** A row as read back from the items table. */
export interface ItemRow {
  id: number;
  schema_version: number;
  item: string;
}

/** @throws UserError for a table name that is not a plain SQL identifier. */
export function checkTableName(tableName: string): void {
  if (!TABLE_NAME.test(tableName) || tableName === META_TABLE || tableName.endsWith('_appends')) {
    throw new UserError(
      `SqliteSession tableName "${tableName}" is not allowed: use letters, digits and underscores (not starting with a digit, at most 63 characters, not "${META_TABLE}", not ending in "_appends").`,
    );
  }
}

/**
 * Creates the items table, its index and the schema table when missing (in one immediate
 * transaction, so two processes opening a new file at once do not race), and checks the stored
 * table version.
 * @throws SessionError (operation `'open'`) when the table was created by a newer version.
 */
export function ensureSchema(db: SqliteDatabase, tableName: string, key: string): void {
  const setup = db.transaction(() => {
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${META_TABLE} (table_name TEXT PRIMARY KEY, schema_version INTEGER NOT NULL)`,
    );
    db.exec(`CREATE TABLE IF NOT EXISTS ${tableName} (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      session_id TEXT NOT NULL,
      schema_version INTEGER NOT NULL,
      item TEXT NOT NULL,
      created_at_ms INTEGER NOT NULL
    )`);
    db.exec(`CREATE INDEX IF NOT EXISTS ${tableName}_session_idx ON ${tableName} (session_id, id)`);
    db.exec(`CREATE TABLE IF NOT EXISTS ${appendsTable(tableName)} (
      session_id TEXT NOT NULL,
      append_id TEXT NOT NULL,
      created_at_ms INTEGER NOT NULL,
      PRIMARY KEY (session_id, append_id)
    ) WITHOUT ROWID`);
    const register = db.prepare(
      `INSERT OR IGNORE INTO ${META_TABLE} (table_name, schema_version) VALUES (?, ?)`,
    );
    register.run(tableName, SQLITE_SESSION_SCHEMA_VERSION);
    register.run(appendsTable(tableName), APPENDS_SCHEMA_VERSION);
    const versionOf = db.prepare(`SELECT schema_version FROM ${META_TABLE} WHERE table_name = ?`);
    return [tableName, appendsTable(tableName)].map((t) => versionOf.pluck().get(t) as number);
  });
  const [items, appends] = setup.immediate();
  for (const [table, version, known] of [
    [tableName, items, SQLITE_SESSION_SCHEMA_VERSION],
    [appendsTable(tableName), appends, APPENDS_SCHEMA_VERSION],
  ] as const) {
    if (version > known) {
      throw new SessionError(
        `SQLite table "${table}" has schema version ${version}, but this @baton/memory reads up to version ${known}. Upgrade @baton/memory (or use another tableName).`,
        { operation: 'open', key },
      );
    }
  }
}

/** Where an item is written, for error messages. */
export interface WriteContext {
  operation: string;
  key: string;
}

/**
 * The `item` column text of one item to write: its JSON, checked like a row read back (a value
 * that is not JSON data, or JSON but not an item of the vocabulary, would make every later read
 * of the session fail, so it is refused before anything of the call is written).
 * @throws SessionError naming the index and what is wrong; nothing of the call is written.
 */
export function encodeItem(item: unknown, index: number, ctx: WriteContext): string {
  const refuse = (what: string, cause?: unknown) =>
    new SessionError(
      `SQLite ${ctx.operation} failed for session key "${ctx.key}": item ${index} ${what}. Pass Responses API items (plain JSON data, valid against @baton/kernel/items.schema.json); nothing of this ${ctx.operation} call was written.`,
      { operation: ctx.operation, key: ctx.key, cause },
    );
  let text: string | undefined;
  try {
    text = JSON.stringify(item);
  } catch (error) {
    throw refuse(`is not JSON-serializable (${(error as Error).message})`, error);
  }
  if (text === undefined) throw refuse(`is ${typeof item}, not an item`);
  const issue = findItemIssue(JSON.parse(text));
  if (issue !== undefined) throw refuse(`is not a valid item (${issue})`);
  return text;
}

/** Where a row is read, for error messages. */
export interface RowContext {
  tableName: string;
  operation: string;
  key: string;
}

/**
 * Decodes one stored row into an item, or returns the `SessionError` (naming the row id) of a row
 * that holds no valid item: a bad schema_version, not valid JSON, or not a valid item of the
 * vocabulary (checked with the kernel's item schemas).
 * @throws SessionError when the row was written by a newer schema version (upgrade to read it).
 */
export function decodeRow(row: ItemRow, ctx: RowContext): Item | SessionError {
  const where = `Row id ${row.id} of SQLite table "${ctx.tableName}" (session key "${ctx.key}")`;
  const invalid = (what: string, cause?: unknown) =>
    new SessionError(
      `${where} ${what}. Repair or delete that row (DELETE FROM ${ctx.tableName} WHERE id = ${row.id}), or open the session with onInvalidItem: 'skip' to leave such rows out.`,
      { operation: ctx.operation, key: ctx.key, cause },
    );
  const version = row.schema_version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    return invalid(`has an invalid schema_version (${String(version)})`);
  if (version > SQLITE_SESSION_SCHEMA_VERSION) {
    throw new SessionError(
      `${where} was written with schema version ${version}, but this @baton/memory reads up to version ${SQLITE_SESSION_SCHEMA_VERSION}. Upgrade @baton/memory to read this session.`,
      { operation: ctx.operation, key: ctx.key },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(row.item);
  } catch (error) {
    return invalid(`is corrupt: its item is not valid JSON (${(error as Error).message})`, error);
  }
  const issue = findItemIssue(value);
  return issue === undefined ? (value as Item) : invalid(`does not hold a valid item (${issue})`);
}
