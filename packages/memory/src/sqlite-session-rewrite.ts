/**
 * History rewrite v1 of `SqliteSession` (see `compaction/session-rewrite.ts`): one
 * `BEGIN IMMEDIATE` transaction reads the session's oldest rows, compares them with the expected
 * items, deletes them and inserts the replacement under the smallest of their row ids — so the
 * replacement sorts before every kept row, and rows other processes append meanwhile (larger ids)
 * stay after it.
 */
import type { Item } from '@baton/kernel';
import { UserError } from '@baton/kernel';
import type { SqliteDatabase, SqliteTransaction } from './sqlite-driver.js';
import { SQLITE_SESSION_SCHEMA_VERSION } from './sqlite-schema.js';

/** Builds the transaction function for one table; call it with `.immediate(...)`. */
export function prepareReplaceOldest(
  db: SqliteDatabase,
  table: string,
  sessionId: string,
): SqliteTransaction<(expected: readonly Item[], replacement: readonly string[]) => boolean> {
  const oldest = db.prepare(
    `SELECT id, item FROM ${table} WHERE session_id = ? ORDER BY id ASC LIMIT ?`,
  );
  const remove = db.prepare(`DELETE FROM ${table} WHERE id = ?`);
  const insert = db.prepare(
    `INSERT INTO ${table} (id, session_id, schema_version, item, created_at_ms) VALUES (?, ?, ?, ?, ?)`,
  );
  // `replacement` holds the rows' item texts (already checked by `encodeItem`).
  return db.transaction((expected: readonly Item[], replacement: readonly string[]): boolean => {
    if (replacement.length > expected.length)
      throw new UserError(
        `SqliteSession.replaceOldestItems: the replacement (${replacement.length} items) must not be longer than the replaced items (${expected.length}).`,
      );
    if (expected.length === 0) return replacement.length === 0;
    const rows = oldest.all(sessionId, expected.length) as { id: number; item: string }[];
    if (rows.length !== expected.length) return false;
    for (let i = 0; i < rows.length; i++) {
      let same = false;
      try {
        same = JSON.stringify(JSON.parse(rows[i].item)) === JSON.stringify(expected[i]);
      } catch {
        same = false;
      }
      if (!same) return false;
    }
    for (const row of rows) remove.run(row.id);
    const now = Date.now();
    for (let i = 0; i < replacement.length; i++)
      insert.run(rows[i].id, sessionId, SQLITE_SESSION_SCHEMA_VERSION, replacement[i], now);
    return true;
  });
}
