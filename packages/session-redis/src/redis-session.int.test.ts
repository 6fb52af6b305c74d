import { BatonError, type Item, SessionError, UserError } from '@baton/kernel';
import { RedisSession } from '@baton/session-redis';
import { startTestRedis, type TestRedis } from '@baton/testing';
import { describeSessionConformance } from '@baton/testing/vitest';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let redis: TestRedis;
const clients: Redis[] = [];
/** A caller-owned client; closed after all tests. */
function client(options: { keyPrefix?: string } = {}): Redis {
  const c = new Redis(redis.url, { ...options, enableOfflineQueue: true });
  clients.push(c);
  return c;
}
let shared: Redis;
let prefixed: Redis;

beforeAll(async () => {
  redis = await startTestRedis();
  shared = client();
  prefixed = client({ keyPrefix: 'tenant7:' });
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await redis?.dispose();
});

const user = (content: string): Item => ({ type: 'message', role: 'user', content });
const contents = (items: Item[]) => items.map((it) => (it as { content: string }).content);
let seq = 0;
const uniqueId = (label: string) => `${label}_${Date.now().toString(36)}_${seq++}`;

function expectSessionError(error: unknown, operation: string, key: string, text: RegExp): void {
  expect(BatonError.isInstance(error)).toBe(true);
  expect(error).toBeInstanceOf(SessionError);
  expect((error as SessionError).operation).toBe(operation);
  expect((error as SessionError).key).toBe(key);
  expect((error as Error).message).toMatch(text);
}

const v2 = { version: 'v2' } as const;
describeSessionConformance(
  'RedisSession (caller-owned client)',
  (sessionId) => new RedisSession({ sessionId, client: shared }),
  v2,
);
describeSessionConformance(
  'RedisSession.fromUrl (owned client)',
  (sessionId) => {
    const session = RedisSession.fromUrl(redis.url, { sessionId, keyPrefix: 'conf:' });
    return { session, cleanup: () => session.close() };
  },
  v2,
);
describeSessionConformance(
  'RedisSession (client with its own keyPrefix)',
  (sessionId) => new RedisSession({ sessionId, client: prefixed, ttlSeconds: 600 }),
  v2,
);

describe('RedisSession on a real redis-server', () => {
  it('stores versioned entries in a hash-tagged list and keeps a metadata hash', async () => {
    const id = uniqueId('layout');
    const session = new RedisSession({ sessionId: id, client: shared });
    expect(session.itemsKey).toBe(`baton:session:{${id}}:items`);
    expect(session.metaKey).toBe(`baton:session:{${id}}:meta`);
    expect(await session.getMetadata()).toBeUndefined();
    await session.addItems([user('a'), user('b')]);
    expect(await shared.lrange(session.itemsKey, 0, -1)).toEqual([
      '{"v":1,"item":{"type":"message","role":"user","content":"a"}}',
      '{"v":1,"item":{"type":"message","role":"user","content":"b"}}',
    ]);
    const first = (await session.getMetadata())!;
    expect(first.itemCount).toBe(2);
    expect(first.createdAtMs).toBe(first.updatedAtMs);
    expect(Math.abs(first.createdAtMs - Date.now())).toBeLessThan(5000);
    await new Promise((r) => setTimeout(r, 5));
    await session.addItems([user('c')]);
    expect(await session.popItem()).toEqual(user('c'));
    const after = (await session.getMetadata())!;
    expect(after.itemCount).toBe(2);
    expect(after.createdAtMs).toBe(first.createdAtMs);
    expect(after.updatedAtMs).toBeGreaterThan(first.updatedAtMs);
    expect(await shared.pttl(session.itemsKey)).toBe(-1);
    await session.clearSession();
    expect(await shared.exists(session.itemsKey, session.metaKey)).toBe(0);
  });

  it('two clients appending to one session id never interleave the items of one addItems', async () => {
    const id = uniqueId('two_writers');
    const writers = [
      new RedisSession({ sessionId: id, client: client() }),
      new RedisSession({ sessionId: id, client: client() }),
    ];
    const batches = 60;
    const perBatch = 5;
    await Promise.all(
      writers.map(async (session, w) => {
        for (let b = 0; b < batches; b++) {
          await session.addItems(
            Array.from({ length: perBatch }, (_, k) => user(`${w}:${b}:${k}`)),
          );
        }
      }),
    );
    const all = contents(await writers[0].getItems());
    expect(all).toHaveLength(2 * batches * perBatch);
    const order: number[][] = [[], []];
    let switches = 0;
    for (let i = 0; i < all.length; i += perBatch) {
      const [w, b] = all[i].split(':');
      expect(all.slice(i, i + perBatch)).toEqual(
        Array.from({ length: perBatch }, (_, k) => `${w}:${b}:${k}`),
      );
      if (i > 0 && all[i - 1][0] !== w) switches++;
      order[Number(w)].push(Number(b));
    }
    expect(order).toEqual([0, 1].map(() => Array.from({ length: batches }, (_, b) => b)));
    expect(switches).toBeGreaterThan(5);
    expect((await writers[1].getMetadata())!.itemCount).toBe(2 * batches * perBatch);
    await writers[0].clearSession();
  });

  it('reports a corrupt entry with its index instead of a JSON.parse stack trace', async () => {
    const session = new RedisSession({ sessionId: uniqueId('corrupt'), client: shared });
    const key = session.itemsKey;
    await session.addItems([user('0'), user('1')]);
    await shared.rpush(key, '{"v":1,"item":{"type":"mess');
    await session.addItems([user('3'), user('4')]);
    const all = await session.getItems().catch((e) => e);
    expectSessionError(
      all,
      'getItems',
      key,
      /Entry at index 2 of Redis list .* not valid JSON.*Repair it \(LSET/,
    );
    const limited = await session.getItems(3).catch((e) => e);
    expectSessionError(limited, 'getItems', key, /Entry at index 2 /);
    expect(contents(await session.getItems(2))).toEqual(['3', '4']);

    await shared.lset(key, 2, '{"v":1}');
    expectSessionError(
      await session.getItems().catch((e) => e),
      'getItems',
      key,
      /index 2 .*does not hold a valid item/,
    );
    await shared.lset(key, 2, '"just a string"');
    expectSessionError(
      await session.getItems().catch((e) => e),
      'getItems',
      key,
      /index 2 .*no schema version "v"/,
    );

    await shared.rpush(key, 'garbage');
    const pop = await session.popItem().catch((e) => e);
    expectSessionError(pop, 'popItem', key, /Entry at index 5 /);
    expect(await shared.llen(key)).toBe(5);
    await session.clearSession();
  });

  it('checks entries with the item schemas; onInvalidItem: skip leaves bad ones out', async () => {
    const id = uniqueId('invalid');
    const session = new RedisSession({ sessionId: id, client: shared });
    await session.addItems([user('0'), user('1')]);
    await shared.rpush(session.itemsKey, '{"v":1,"item":{"type":"message","role":"user"}}');
    await session.addItems([user('3')]);
    const error = await session.getItems().catch((e) => e);
    expectSessionError(
      error,
      'getItems',
      session.itemsKey,
      /Entry at index 2 of Redis list .* does not hold a valid item \(content: Invalid input: expected string, received undefined\)/,
    );
    const skipping = new RedisSession({ sessionId: id, client: shared, onInvalidItem: 'skip' });
    expect(contents(await skipping.getItems())).toEqual(['0', '1', '3']);
    expect(contents(await skipping.getItems(2))).toEqual(['3']);
    expect(await skipping.popItem()).toEqual(user('3'));
    // The invalid entry is removed on the way to the newest valid item.
    expect(await skipping.popItem()).toEqual(user('1'));
    expect(await shared.llen(session.itemsKey)).toBe(1);
    expect(
      () => new RedisSession({ sessionId: id, client: shared, onInvalidItem: 'x' as 'skip' }),
    ).toThrow(UserError);
    await session.clearSession();
  });

  it('v2: keeps applied ids in a hash-tagged set, with the TTL of the items, deleted by clear', async () => {
    const id = uniqueId('appends');
    const session = new RedisSession({ sessionId: id, client: shared, ttlSeconds: 60 });
    expect(session.appendsKey).toBe(`baton:session:{${id}}:appends`);
    await session.addItems([user('a')], { appendId: 'run_1:t0:input' });
    await session.addItems([user('a')], { appendId: 'run_1:t0:input' });
    expect(await shared.smembers(session.appendsKey)).toEqual(['run_1:t0:input']);
    expect((await session.getMetadata())!.itemCount).toBe(1);
    expect(await shared.pttl(session.appendsKey)).toBeGreaterThan(50_000);
    await session.popItem();
    expect(await shared.pttl(session.appendsKey)).toBeGreaterThan(50_000);
    await expect(session.addItems([user('x')], { appendId: '' })).rejects.toThrow(UserError);
    await session.clearSession();
    expect(await shared.exists(session.itemsKey, session.metaKey, session.appendsKey)).toBe(0);
  });

  it('appends thousands of items in one call (the script pushes in chunks)', async () => {
    const session = new RedisSession({ sessionId: uniqueId('many'), client: shared });
    const items = Array.from({ length: 9000 }, (_, i) => user(String(i)));
    await session.addItems(items, { appendId: 'big' });
    expect(await shared.llen(session.itemsKey)).toBe(9000);
    expect(contents(await session.getItems(2))).toEqual(['8998', '8999']);
    expect((await session.getMetadata())!.itemCount).toBe(9000);
    await session.clearSession();
  });

  it('refuses an entry written by a newer schema version', async () => {
    const session = new RedisSession({ sessionId: uniqueId('newer'), client: shared });
    await session.addItems([user('old')]);
    await shared.rpush(
      session.itemsKey,
      JSON.stringify({ v: 2, item: user('future'), extra: { x: 1 } }),
    );
    const error = await session.getItems().catch((e) => e);
    expectSessionError(
      error,
      'getItems',
      session.itemsKey,
      /index 1 .*entry schema version 2.*reads up to version 1\. Upgrade @baton\/session-redis/,
    );
    // A tail read (one LRANGE) names the same index: the list is read again with its length.
    await session.addItems([user('new')]);
    expectSessionError(
      await session.getItems(2).catch((e) => e),
      'getItems',
      session.itemsKey,
      /index 1 .*entry schema version 2/,
    );
    // Even while the invalid entry is skipped, a newer one is never returned half-read.
    const skipping = new RedisSession({
      sessionId: session.sessionId,
      client: shared,
      onInvalidItem: 'skip',
    });
    await expect(skipping.getItems(2)).rejects.toThrow(/index 1 .*entry schema version 2/);
    await session.clearSession();
  });

  it('expires both keys after ttlSeconds and refreshes the TTL on every write', async () => {
    const session = new RedisSession({ sessionId: uniqueId('ttl'), client: shared, ttlSeconds: 1 });
    await session.addItems([user('first')]);
    const ttl = await shared.pttl(session.itemsKey);
    expect(ttl).toBeGreaterThan(500);
    expect(ttl).toBeLessThanOrEqual(1000);
    expect(await shared.pttl(session.metaKey)).toBeGreaterThan(500);
    await new Promise((r) => setTimeout(r, 600));
    await session.addItems([user('second')]);
    expect(await shared.pttl(session.itemsKey)).toBeGreaterThan(700);
    await new Promise((r) => setTimeout(r, 600));
    // 1.2 s after the first write: still there, because the second write refreshed the TTL.
    expect(contents(await session.getItems())).toEqual(['first', 'second']);
    const deadline = Date.now() + 3000;
    while ((await shared.exists(session.itemsKey, session.metaKey)) > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await shared.exists(session.itemsKey, session.metaKey)).toBe(0);
    expect(await session.getItems()).toEqual([]);
    expect(await session.getMetadata()).toBeUndefined();
  });

  it('works with a client that has its own keyPrefix (keys, pop script, clear, errors)', async () => {
    const id = uniqueId('prefixed');
    const session = new RedisSession({ sessionId: id, client: prefixed, keyPrefix: 'app:' });
    await session.addItems([user('x'), user('y')]);
    expect(await shared.llen(`tenant7:app:{${id}}:items`)).toBe(2);
    expect(await shared.hget(`tenant7:app:{${id}}:meta`, 'item_count')).toBe('2');
    expect(await shared.exists(`app:{${id}}:items`)).toBe(0);
    expect(await session.popItem()).toEqual(user('y'));
    expect(await shared.hget(`tenant7:app:{${id}}:meta`, 'item_count')).toBe('1');
    await shared.rpush(`tenant7:app:{${id}}:items`, 'nope');
    const error = await session.getItems().catch((e) => e);
    expectSessionError(
      error,
      'getItems',
      `tenant7:app:{${id}}:items`,
      /index 1 of Redis list "tenant7:app:/,
    );
    await session.clearSession();
    expect(await shared.exists(`tenant7:app:{${id}}:items`, `tenant7:app:{${id}}:meta`)).toBe(0);
  });

  it('uses the constructor limit when getItems is called without one', async () => {
    const session = new RedisSession({ sessionId: uniqueId('limit'), client: shared, limit: 2 });
    await session.addItems([user('1'), user('2'), user('3')]);
    expect(contents(await session.getItems())).toEqual(['2', '3']);
    expect(contents(await session.getItems(3))).toEqual(['1', '2', '3']);
    expect(await session.getItems(0)).toEqual([]);
    expect(await session.getItems(0.5)).toEqual([]);
    expect(contents(await session.getItems(1.9))).toEqual(['3']);
    await session.clearSession();
  });

  it('writes nothing when an item cannot be serialized', async () => {
    const session = new RedisSession({ sessionId: uniqueId('bigint'), client: shared });
    const bad = { type: 'message', role: 'user', content: 'x', n: 1n } as unknown as Item;
    const error = await session.addItems([user('ok'), bad]).catch((e) => e);
    expectSessionError(error, 'addItems', session.itemsKey, /not JSON-serializable/);
    expect(await shared.exists(session.itemsKey, session.metaKey)).toBe(0);
  });

  it('refuses values that are not items and writes nothing (later reads would all fail)', async () => {
    const session = new RedisSession({ sessionId: uniqueId('notitems'), client: shared });
    await session.addItems([user('before')]);
    const bad: [unknown, RegExp][] = [
      [{ foo: 1 }, /not a valid item \(no string "type"\)/],
      [null, /not a valid item \(not an object\)/],
      [undefined, /is undefined, not JSON-serializable/],
      ['text', /not a valid item \(not an object\)/],
      [{ type: 'message', role: 'user', content: 7 }, /not a valid item/],
    ];
    for (const [value, text] of bad) {
      const error = await session.addItems([user('a'), value as Item]).catch((e) => e);
      expectSessionError(error, 'addItems', session.itemsKey, text);
    }
    const notArray = await session.addItems('abc' as unknown as Item[]).catch((e) => e);
    expect(notArray).toBeInstanceOf(UserError);
    expect((notArray as Error).message).toMatch(/items must be an array/);
    const rewrite = await session
      .replaceOldestItems([user('before')], [{ nope: true } as unknown as Item])
      .catch((e) => e);
    expectSessionError(rewrite, 'replaceOldestItems', session.itemsKey, /not a valid item/);
    expect(contents(await session.getItems())).toEqual(['before']);
    await session.clearSession();
  });

  it('close() closes an owned client only', async () => {
    const owned = RedisSession.fromUrl(redis.url, { sessionId: uniqueId('close') });
    await owned.addItems([user('x')]);
    await owned.clearSession();
    await owned.close();
    await owned.close();
    const error = await owned.getItems().catch((e) => e);
    expectSessionError(error, 'getItems', owned.itemsKey, /was closed\. Create a new session/);

    const mine = client();
    const borrowed = new RedisSession({ sessionId: uniqueId('borrowed'), client: mine });
    await borrowed.close();
    expect(await mine.ping()).toBe('PONG');
  });

  it('rejects bad options with UserError', () => {
    expect(() => new RedisSession({ sessionId: '', client: shared })).toThrow(UserError);
    expect(() => new RedisSession({ sessionId: 's', client: shared, ttlSeconds: 0 })).toThrow(
      /ttlSeconds/,
    );
    expect(() => new RedisSession({ sessionId: 's', client: shared, limit: -1 })).toThrow(/limit/);
    expect(
      () => new RedisSession({ sessionId: 's', client: undefined as unknown as Redis }),
    ).toThrow(/needs an ioredis `client`/);
  });
});
