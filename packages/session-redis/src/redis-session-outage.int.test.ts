import { BatonError, type Item, SessionError } from '@baton/kernel';
import { RedisSession } from '@baton/session-redis';
import { startFaultProxy, startTestRedis, type TestRedis } from '@baton/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let redis: TestRedis;
let admin: Redis;
beforeAll(async () => {
  redis = await startTestRedis();
  admin = new Redis(redis.url);
  admin.on('error', () => {});
});
afterAll(async () => {
  admin?.disconnect();
  await redis?.dispose();
});

const user = (content: string): Item => ({ type: 'message', role: 'user', content });
const contents = (items: Item[]) => items.map((it) => (it as { content: string }).content);

/** Runs `fn`, expecting a SessionError; returns it with how long the call took (ms). */
async function failure(fn: () => Promise<unknown>): Promise<{ error: SessionError; ms: number }> {
  const started = Date.now();
  const error = await fn().then(
    () => undefined,
    (e) => e,
  );
  expect(BatonError.isInstance(error)).toBe(true);
  expect(error).toBeInstanceOf(SessionError);
  return { error: error as SessionError, ms: Date.now() - started };
}

describe('RedisSession when Redis goes away', () => {
  it('fails fast with SessionError when nothing listens at the URL', async () => {
    const session = RedisSession.fromUrl('redis://127.0.0.1:1', {
      sessionId: 'nobody',
      connectTimeoutMs: 1000,
    });
    const { error, ms } = await failure(() => session.getItems());
    expect(error.operation).toBe('getItems');
    expect(error.key).toBe('baton:session:{nobody}:items');
    expect(error.message).toMatch(
      /Redis getItems failed for key "baton:session:\{nobody\}:items": .*ECONNREFUSED/,
    );
    expect(error.message).toMatch(
      /Make sure Redis is running and reachable at 127\.0\.0\.1:1, then retry/,
    );
    expect(ms).toBeLessThan(3000);
    await session.close();
  });

  it('errors clearly while Redis is down, then continues the history after a restart on the same port', async () => {
    const session = RedisSession.fromUrl(redis.url, {
      sessionId: 'restart',
      connectTimeoutMs: 1500,
    });
    await session.addItems([user('before 1'), user('before 2')]);
    // Persist to the test server's folder so the restarted server loads the history.
    expect(await admin.save()).toBe('OK');
    await redis.stop('SIGKILL');

    const add = await failure(() => session.addItems([user('lost')]));
    expect(add.error.operation).toBe('addItems');
    expect(add.error.key).toBe('baton:session:{restart}:items');
    expect(add.error.message).toMatch(/Redis addItems failed for key .*Make sure Redis is running/);
    expect(add.ms).toBeLessThan(4000);
    const read = await failure(() => session.getItems());
    expect(read.error.operation).toBe('getItems');
    const pop = await failure(() => session.popItem());
    expect(pop.error.operation).toBe('popItem');
    const clear = await failure(() => session.clearSession());
    expect(clear.error.operation).toBe('clearSession');

    await redis.start();
    await session.addItems([user('after')]);
    expect(contents(await session.getItems())).toEqual(['before 1', 'before 2', 'after']);
    expect((await session.getMetadata())!.itemCount).toBe(3);
    await session.clearSession();
    await session.close();
  });

  it('fails fast for a caller-owned client configured as documented, and recovers after restart', async () => {
    const client = new Redis(redis.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (times) => Math.min(100 * times, 500),
      keyPrefix: 'svc:',
    });
    client.on('error', () => {});
    await new Promise<void>((resolve) => client.once('ready', () => resolve()));
    const session = new RedisSession({ sessionId: 'borrowed', client });
    await session.addItems([user('one')]);
    await redis.stop('SIGKILL');
    const { error, ms } = await failure(() => session.addItems([user('two')]));
    expect(error.key).toBe('svc:baton:session:{borrowed}:items');
    expect(error.message).toMatch(
      /Redis addItems failed for key "svc:baton:session:\{borrowed\}:items"/,
    );
    expect(ms).toBeLessThan(2000);

    await redis.start();
    const deadline = Date.now() + 5000;
    while (client.status !== 'ready' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 25));
    await session.addItems([user('three')]);
    // No persistence was requested: the killed server lost 'one'; the new write is intact.
    expect(contents(await session.getItems())).toEqual(['three']);
    await session.clearSession();
    client.disconnect();
  });

  it('v2: an append whose reply was lost after Redis applied it is re-sent and stored once', async () => {
    const proxy = await startFaultProxy(redis.port);
    const session = RedisSession.fromUrl(proxy.url, { sessionId: 'lost_reply' });
    try {
      await session.addItems([user('input')], { appendId: 'run_1:t0:input' });
      proxy.loseReplyTo('"content":"turn"');
      const { error } = await failure(() =>
        session.addItems([user('turn')], { appendId: 'run_1:t1:items:0-1' }),
      );
      expect(error.operation).toBe('addItems');
      expect(proxy.repliesLost).toBe(1);
      // Applied although the caller saw an error:
      expect(await admin.llen(session.itemsKey)).toBe(2);
      await session.addItems([user('turn')], { appendId: 'run_1:t1:items:0-1' });
      expect(contents(await session.getItems())).toEqual(['input', 'turn']);
      expect((await session.getMetadata())!.itemCount).toBe(2);
      // Without an appendId (the v1 way) the same re-send stores the item twice.
      proxy.loseReplyTo('"content":"again"');
      await failure(() => session.addItems([user('again')]));
      await session.addItems([user('again')]);
      expect(contents(await session.getItems())).toEqual(['input', 'turn', 'again', 'again']);
    } finally {
      await session.clearSession();
      await session.close();
      await proxy.close();
    }
  });
});
