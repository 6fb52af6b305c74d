/**
 * `SqliteSession` rows as a damaged or foreign database may hold them: item text that is a
 * mutated item, another JSON value or no JSON; `schema_version` values of every SQLite type.
 * Read through `getItems` / `readSessionHistory` ('throw' and 'skip') and `popItem` until empty.
 * Must hold: items the kernel's schema accepts, or a `SessionError`; with 'skip' only rows of a
 * newer version throw; `popItem` ends.
 */
import {
  findItemIssue,
  type Item,
  loadItemSchemas,
  readSessionHistory,
  SessionError,
} from '@baton/kernel';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { SqliteSession } from '../../packages/memory/src/sqlite-session.js';
import { storedItemText } from '../arbitraries/transcripts.js';
import { checkHistory, checkRunOn } from './session-history.fuzz.js';

type Row = { schemaVersion: unknown; item: string };
type Input = { rows: Row[]; skip: boolean };

let db: Database.Database | undefined;
let next = 0;

const schemaVersion = fc.oneof(
  { weight: 8, arbitrary: fc.constant(1) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 2, 1.5, '1', 'one', '', 2 ** 62) },
  { weight: 1, arbitrary: fc.integer() },
);

/** True when a row of `rows` was written by a newer schema version (reads must refuse). */
const newer = (rows: Row[]) =>
  rows.some(
    (r) =>
      typeof r.schemaVersion === 'number' &&
      Number.isInteger(r.schemaVersion) &&
      r.schemaVersion > 1,
  );

export default {
  name: 'session.sqlite.rows',
  description:
    'SqliteSession getItems/readSessionHistory/popItem on damaged rows: valid items or a SessionError; popItem ends',
  arbitrary: () =>
    fc.record({
      rows: fc.array(fc.record({ schemaVersion, item: storedItemText }), { maxLength: 8 }),
      skip: fc.boolean(),
    }),
  run: async ({ rows, skip }: Input) => {
    db ??= new Database(':memory:');
    const sessionId = `s${next++}`;
    const session = new SqliteSession({ sessionId, db, onInvalidItem: skip ? 'skip' : 'throw' });
    const insert = db.prepare(
      'INSERT INTO baton_session_items (session_id, schema_version, item, created_at_ms) VALUES (?, ?, ?, 0)',
    );
    for (const row of rows) insert.run(sessionId, row.schemaVersion as number, row.item);
    const schemas = await loadItemSchemas();
    try {
      let items: Item[];
      try {
        items = await session.getItems();
      } catch (error) {
        if (skip && !newer(rows)) throw new Error(`'skip' threw: ${error}`);
        throw error;
      }
      for (const item of items)
        if (findItemIssue(schemas, item)) throw new Error('getItems returned an invalid item');
      const history = await readSessionHistory(session);
      await checkHistory(history, items);
      await checkRunOn(items, history, { onInvalidItem: 'throw' });
      // popItem until empty: each call returns an item or throws; it always ends.
      for (let i = 0; i <= rows.length; i++) {
        const item = await session.popItem();
        if (item === undefined) return items;
        if (findItemIssue(schemas, item)) throw new Error('popItem returned an invalid item');
      }
      throw new Error('popItem returned more items than there are rows');
    } finally {
      await session.clearSession();
    }
  },
  expected: (error: unknown) => SessionError.isInstance(error),
};
