import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatonError, type Item, SessionError, UserError } from '@baton/kernel';
import { SQLITE_SESSION_SCHEMA_VERSION, SqliteSession } from '@baton/memory';
import { describeSessionConformance } from '@baton/testing/vitest';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'baton-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const shared = join(dir, 'conformance.db');
const sharedMemoryDb = new Database(':memory:');
afterAll(() => sharedMemoryDb.close());

const user = (content: string): Item => ({ type: 'message', role: 'user', content });

function expectSessionError(error: unknown, operation: string, text: RegExp): void {
  expect(BatonError.isInstance(error)).toBe(true);
  expect(error).toBeInstanceOf(SessionError);
  expect((error as SessionError).operation).toBe(operation);
  expect((error as SessionError).message).toMatch(text);
}

describeSessionConformance(
  'SqliteSession (file, one connection per session)',
  (sessionId) => {
    const session = new SqliteSession({ sessionId, path: shared });
    return { session, cleanup: () => session.close() };
  },
  { version: 'v2' },
);
// A private ':memory:' database per session object: the same id gives the same object here, so
// the v2 cases' two handles see one store.
const memoryHandles = new Map<string, SqliteSession>();
describeSessionConformance(
  "SqliteSession (':memory:')",
  (sessionId) => {
    const session =
      memoryHandles.get(sessionId) ?? new SqliteSession({ sessionId, path: ':memory:' });
    memoryHandles.set(sessionId, session);
    return { session, cleanup: () => session.close() };
  },
  { version: 'v2' },
);
describeSessionConformance(
  'SqliteSession (shared in-memory db, custom table)',
  (sessionId) => new SqliteSession({ sessionId, db: sharedMemoryDb, tableName: 'chat_items' }),
  { version: 'v2' },
);

describe('SqliteSession', () => {
  it('opens files in WAL mode and keeps items after the file is reopened', async () => {
    const path = join(dir, 'reopen.db');
    const first = new SqliteSession({ sessionId: 's', path });
    await first.addItems([user('one'), user('two')]);
    first.close();
    const raw = new Database(path);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    const row = raw
      .prepare('SELECT schema_version, session_id FROM baton_session_items LIMIT 1')
      .get();
    expect(row).toEqual({ schema_version: SQLITE_SESSION_SCHEMA_VERSION, session_id: 's' });
    expect(raw.prepare('SELECT * FROM baton_schema').all()).toEqual([
      { table_name: 'baton_session_items', schema_version: 1 },
      { table_name: 'baton_session_items_appends', schema_version: 1 },
    ]);
    raw.close();
    const second = new SqliteSession({ sessionId: 's', path });
    expect(await second.getItems()).toEqual([user('one'), user('two')]);
    second.close();
  });

  it('stores nothing of an addItems call that fails midway (one transaction)', async () => {
    const session = new SqliteSession({ sessionId: 'atomic', path: ':memory:' });
    await session.addItems([user('before')]);
    const bad = { type: 'message', role: 'user', content: 'x', big: 10n } as unknown as Item;
    const error = await session.addItems([user('a'), user('b'), bad, user('c')]).catch((e) => e);
    expectSessionError(
      error,
      'addItems',
      /addItems failed for session key "baton_session_items:atomic"/,
    );
    expect(await session.getItems()).toEqual([user('before')]);
    session.close();
  });

  it('refuses values that are not items and stores nothing (later reads would all fail)', async () => {
    const session = new SqliteSession({ sessionId: 'not-items', path: ':memory:' });
    await session.addItems([user('before')]);
    const bad: [unknown, RegExp][] = [
      [{ foo: 1 }, /item 1 is not a valid item \(no string "type"\)/],
      [null, /item 1 is not a valid item \(not an object\)/],
      [undefined, /item 1 is undefined, not an item/],
      ['text', /item 1 is not a valid item \(not an object\)/],
      [{ type: 'message', role: 'user', content: 7 }, /item 1 is not a valid item/],
      [() => 1, /item 1 is function, not an item/],
    ];
    for (const [value, text] of bad) {
      const error = await session.addItems([user('a'), value as Item]).catch((e) => e);
      expectSessionError(error, 'addItems', text);
      expect((error as SessionError).message).toMatch(/nothing of this addItems call was written/);
    }
    const notArray = await session.addItems('abc' as unknown as Item[]).catch((e) => e);
    expect(notArray).toBeInstanceOf(UserError);
    expect((notArray as Error).message).toMatch(/items must be an array/);
    await session.addItems([user('after')], { appendId: 'x' });
    expect(await session.getItems()).toEqual([user('before'), user('after')]);
    const rewrite = await session
      .replaceOldestItems([user('before')], [{ nope: true } as unknown as Item])
      .catch((e) => e);
    expectSessionError(rewrite, 'replaceOldestItems', /item 0 is not a valid item/);
    expect(await session.getItems()).toEqual([user('before'), user('after')]);
    session.close();
  });

  it('reports a corrupt row with its row id, and popItem keeps that row', async () => {
    const db = new Database(':memory:');
    const session = new SqliteSession({ sessionId: 'c', db });
    await session.addItems([user('ok'), user('soon corrupt')]);
    const id = db.prepare('SELECT max(id) FROM baton_session_items').pluck().get() as number;
    db.prepare('UPDATE baton_session_items SET item = ? WHERE id = ?').run('{"type":"mess', id);
    const read = await session.getItems().catch((e) => e);
    expectSessionError(
      read,
      'getItems',
      new RegExp(`Row id ${id} of SQLite table "baton_session_items".*not valid JSON`),
    );
    expect((read as SessionError).key).toBe('baton_session_items:c');
    expect((read as Error).message).toContain(`DELETE FROM baton_session_items WHERE id = ${id}`);
    const pop = await session.popItem().catch((e) => e);
    expectSessionError(pop, 'popItem', new RegExp(`Row id ${id} `));
    expect(db.prepare('SELECT count(*) FROM baton_session_items').pluck().get()).toBe(2);
    expect(await session.getItems(1).catch((e) => e)).toBeInstanceOf(SessionError);

    db.prepare('UPDATE baton_session_items SET item = ? WHERE id = ?').run('[1,2]', id);
    const notItem = await session.getItems().catch((e) => e);
    expectSessionError(
      notItem,
      'getItems',
      new RegExp(`Row id ${id} .*does not hold a valid item \\(not an object\\)`),
    );
    db.close();
  });

  it('checks rows with the item schemas: a bad row names the row; skip leaves it out', async () => {
    const db = new Database(':memory:');
    const session = new SqliteSession({ sessionId: 'bad', db });
    await session.addItems([user('one'), user('two'), user('three')]);
    // A message without content (crashed the Chat and Anthropic converters before).
    db.prepare('UPDATE baton_session_items SET item = ? WHERE id = 2').run(
      '{"type":"message","role":"user"}',
    );
    const error = await session.getItems().catch((e) => e);
    expectSessionError(
      error,
      'getItems',
      /Row id 2 of SQLite table "baton_session_items" \(session key "baton_session_items:bad"\) does not hold a valid item \(content: Invalid input: expected string, received undefined\)/,
    );
    expect(error.message).toContain('DELETE FROM baton_session_items WHERE id = 2');
    expect(error.message).toContain("onInvalidItem: 'skip'");

    const skipping = new SqliteSession({ sessionId: 'bad', db, onInvalidItem: 'skip' });
    expect(await skipping.getItems()).toEqual([user('one'), user('three')]);
    expect(await skipping.getItems(2)).toEqual([user('three')]);
    expect(await skipping.popItem()).toEqual(user('three'));
    // popItem deletes an invalid row on its way to the newest valid item.
    expect(await skipping.popItem()).toEqual(user('one'));
    expect(db.prepare('SELECT count(*) FROM baton_session_items').pluck().get()).toBe(0);
    // Newer rows are never skipped: they need an upgrade, not a repair.
    await skipping.addItems([user('future')]);
    db.prepare('UPDATE baton_session_items SET schema_version = 9').run();
    await expect(skipping.getItems()).rejects.toThrow(/Upgrade @baton\/memory/);
    expect(
      () => new SqliteSession({ sessionId: 'x', db, onInvalidItem: 'drop' as 'skip' }),
    ).toThrow(UserError);
    db.close();
  });

  it('v2: an appendId survives closing and reopening the file (a replay after a restart)', async () => {
    const path = join(dir, 'replay.db');
    const first = new SqliteSession({ sessionId: 'r', path });
    await first.addItems([user('a')], { appendId: 'run_1:t0:input' });
    first.close();
    const second = new SqliteSession({ sessionId: 'r', path });
    await second.addItems([user('a')], { appendId: 'run_1:t0:input' });
    await second.addItems([user('b')], { appendId: 'run_1:t1:items:0-1' });
    expect(await second.getItems()).toEqual([user('a'), user('b')]);
    await expect(second.addItems([user('c')], { appendId: '' })).rejects.toThrow(UserError);
    await second.clearSession();
    const raw = new Database(path);
    expect(raw.prepare('SELECT count(*) FROM baton_session_items_appends').pluck().get()).toBe(0);
    raw.close();
    second.close();
    expect(
      () => new SqliteSession({ sessionId: 's', path: ':memory:', tableName: 'x_appends' }),
    ).toThrow(/not ending in "_appends"/);
  });

  it('refuses a row written by a newer schema version', async () => {
    const db = new Database(':memory:');
    const session = new SqliteSession({ sessionId: 'v', db });
    await session.addItems([user('old'), user('future')]);
    db.prepare('UPDATE baton_session_items SET schema_version = 2 WHERE id = 2').run();
    const error = await session.getItems().catch((e) => e);
    expectSessionError(
      error,
      'getItems',
      /Row id 2 .*schema version 2.*reads up to version 1\. Upgrade @baton\/memory/,
    );
    expect(await session.getItems(1).catch((e) => e)).toBeInstanceOf(SessionError);
    db.close();
  });

  it('refuses a table created by a newer schema version when opening', () => {
    const path = join(dir, 'newer.db');
    new SqliteSession({ sessionId: 'x', path }).close();
    const raw = new Database(path);
    raw
      .prepare(
        "UPDATE baton_schema SET schema_version = 7 WHERE table_name = 'baton_session_items'",
      )
      .run();
    raw.close();
    let error: unknown;
    try {
      new SqliteSession({ sessionId: 'x', path });
    } catch (e) {
      error = e;
    }
    expectSessionError(
      error,
      'open',
      /table "baton_session_items" has schema version 7.*reads up to version 1/,
    );
  });

  it('fails with SessionError after another process held the lock longer than busyTimeoutMs', async () => {
    const path = join(dir, 'busy.db');
    const session = new SqliteSession({ sessionId: 'b', path, busyTimeoutMs: 50 });
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    const error = await session.addItems([user('blocked')]).catch((e) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    expectSessionError(error, 'addItems', /raise busyTimeoutMs/);
    other.exec('ROLLBACK');
    await session.addItems([user('free')]);
    expect(await session.getItems()).toEqual([user('free')]);
    other.close();
    session.close();
  });

  it('close() closes a database it opened, but never one it was given', async () => {
    const owned = new SqliteSession({ sessionId: 'o', path: join(dir, 'owned.db') });
    owned.close();
    owned.close();
    const error = await owned.getItems().catch((e) => e);
    expectSessionError(error, 'getItems', /database is closed/);

    const db = new Database(':memory:');
    const given = new SqliteSession({ sessionId: 'g', db });
    given.close();
    expect(db.open).toBe(true);
    await given.addItems([user('still works')]);
    expect(await given.getItems()).toEqual([user('still works')]);
    db.close();
  });

  it('rejects bad options with UserError', () => {
    expect(() => new SqliteSession({ sessionId: 's' })).toThrow(UserError);
    expect(
      () => new SqliteSession({ sessionId: 's', path: ':memory:', db: sharedMemoryDb }),
    ).toThrow(/exactly one of `path`/);
    expect(() => new SqliteSession({ sessionId: '', path: ':memory:' })).toThrow(
      /non-empty `sessionId`/,
    );
    expect(
      () => new SqliteSession({ sessionId: 's', path: ':memory:', tableName: 'x; DROP TABLE y' }),
    ).toThrow(UserError);
  });

  it('reports a file it cannot open as SessionError naming the operation', () => {
    let error: unknown;
    try {
      new SqliteSession({ sessionId: 's', path: join(dir, 'missing-folder', 'x.db') });
    } catch (e) {
      error = e;
    }
    expectSessionError(error, 'open', /SQLite open failed for session key "baton_session_items:s"/);
  });
});
