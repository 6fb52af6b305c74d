/**
 * The storage format of `SqliteSession`: one items table (one row per item, each row carrying
 * the schema version it was written with) and a `baton_schema` table holding the version of
 * each Baton table. Versions only grow; a reader refuses rows and tables newer than it knows.
 *
 * Version history (one line per version):
 * - 1: `<table>(id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, schema_version INTEGER,
 *      item TEXT, created_at_ms INTEGER)`; `item` is the JSON of one Responses API item.
 */
import type { Item } from '@baton/kernel';
import { SessionError, UserError } from '@baton/kernel';
import type BetterSqlite3 from 'better-sqlite3';

/** The schema version this package writes (for the table and for each row). */
export const SQLITE_SESSION_SCHEMA_VERSION = 1;

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
  if (!TABLE_NAME.test(tableName) || tableName === META_TABLE) {
    throw new UserError(
      `SqliteSession tableName "${tableName}" is not allowed: use letters, digits and underscores (not starting with a digit, at most 63 characters, not "${META_TABLE}").`,
    );
  }
}

/**
 * Creates the items table, its index and the schema table when missing (in one immediate
 * transaction, so two processes opening a new file at once do not race), and checks the stored
 * table version.
 * @throws SessionError (operation `'open'`) when the table was created by a newer version.
 */
export function ensureSchema(db: BetterSqlite3.Database, tableName: string, key: string): void {
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
    db.prepare(
      `INSERT OR IGNORE INTO ${META_TABLE} (table_name, schema_version) VALUES (?, ?)`,
    ).run(tableName, SQLITE_SESSION_SCHEMA_VERSION);
    return db
      .prepare(`SELECT schema_version FROM ${META_TABLE} WHERE table_name = ?`)
      .pluck()
      .get(tableName) as number;
  });
  const version = setup.immediate();
  if (version > SQLITE_SESSION_SCHEMA_VERSION) {
    throw new SessionError(
      `SQLite table "${tableName}" has schema version ${version}, but this @baton/memory reads up to version ${SQLITE_SESSION_SCHEMA_VERSION}. Upgrade @baton/memory (or use another tableName).`,
      { operation: 'open', key },
    );
  }
}

/**
 * Decodes one stored row into an item.
 * @throws SessionError naming the row id when the row is from a newer schema version, is not
 *   valid JSON, or does not hold an item object with a string `type`.
 */
export function decodeRow(
  row: ItemRow,
  ctx: { tableName: string; operation: string; key: string },
): Item {
  const where = `Row id ${row.id} of SQLite table "${ctx.tableName}" (session key "${ctx.key}")`;
  if (
    typeof row.schema_version !== 'number' ||
    !Number.isInteger(row.schema_version) ||
    row.schema_version < 1
  ) {
    throw new SessionError(
      `${where} has an invalid schema_version (${String(row.schema_version)}). Repair or delete that row (DELETE FROM ${ctx.tableName} WHERE id = ${row.id}).`,
      { operation: ctx.operation, key: ctx.key },
    );
  }
  if (row.schema_version > SQLITE_SESSION_SCHEMA_VERSION) {
    throw new SessionError(
      `${where} was written with schema version ${row.schema_version}, but this @baton/memory reads up to version ${SQLITE_SESSION_SCHEMA_VERSION}. Upgrade @baton/memory to read this session.`,
      { operation: ctx.operation, key: ctx.key },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(row.item);
  } catch (error) {
    throw new SessionError(
      `${where} is corrupt: its item is not valid JSON (${(error as Error).message}). Repair or delete that row (DELETE FROM ${ctx.tableName} WHERE id = ${row.id}).`,
      { operation: ctx.operation, key: ctx.key, cause: error },
    );
  }
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    typeof (value as { type?: unknown }).type !== 'string'
  ) {
    throw new SessionError(
      `${where} is corrupt: it does not hold an item object with a string "type". Repair or delete that row (DELETE FROM ${ctx.tableName} WHERE id = ${row.id}).`,
      { operation: ctx.operation, key: ctx.key },
    );
  }
  return value as Item;
}
