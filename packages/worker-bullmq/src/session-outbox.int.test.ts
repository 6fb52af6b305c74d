/**
 * The session outbox of a durable run against a real Redis: with a `Session` v2 an entry whose
 * sender died between the append and the acknowledgement is re-sent at once and stored once;
 * with a v1 session it waits for the lease and is stored twice (the gap v2 closes). History read
 * at `start()` is checked with the kernel's item schemas.
 */
import {
  type AddItemsOptions,
  type Item,
  MemorySession,
  type RunState,
  run,
  type Session,
  SessionError,
  type SessionV2,
} from '@baton/kernel';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureAgents } from './__tests__/fixtures.js';
import { startRedisServer, type TestRedis } from './__tests__/redis-server.js';
import { createDurableRunner } from './index.js';
import { RunStore } from './run-store.js';
import { flushSessionOutbox, outboxAppendId } from './session-outbox.js';

let redis: TestRedis;
let client: Redis;
beforeAll(async () => {
  redis = await startRedisServer();
  client = new Redis(redis.connection);
});
afterAll(async () => {
  client?.disconnect();
  await redis?.dispose();
});

const user = (content: string): Item => ({ type: 'message', role: 'user', content });
const contents = (items: Item[]) => items.map((i) => (i as { content: string }).content);

/** A view of `inner` as a v1 session (no specificationVersion, no appendId). */
function asV1(inner: MemorySession): Session {
  return {
    sessionId: inner.sessionId,
    getItems: (limit) => inner.getItems(limit),
    addItems: (items) => inner.addItems(items),
    popItem: () => inner.popItem(),
    clearSession: () => inner.clearSession(),
  };
}

/** A sender that dies after its append reached the session, before acknowledging it. */
function dyingAfterAppend(session: Session | SessionV2): Session | SessionV2 {
  return {
    specificationVersion: (session as SessionV2).specificationVersion,
    sessionId: session.sessionId,
    getItems: (limit) => session.getItems(limit),
    addItems: async (items: Item[], options?: AddItemsOptions) => {
      if (options) await session.addItems(items, options);
      else await session.addItems(items);
      throw new Error('worker killed before the acknowledgement');
    },
    popItem: () => session.popItem(),
    clearSession: () => session.clearSession(),
  } as SessionV2;
}

async function outboxOf(store: RunStore, runId: string, steps: Record<number, Item[]>) {
  for (const [step, items] of Object.entries(steps))
    await client.hset(store.keys(runId).outbox, step, JSON.stringify(items));
}

describe('session outbox', () => {
  it('v2: an entry whose sender died before the ack is re-sent at once, with its appendId, once', async () => {
    const store = new RunStore(client, 'obx');
    const session = new MemorySession({ sessionId: 'v2' });
    const seen: (string | undefined)[] = [];
    const add = session.addItems.bind(session);
    session.addItems = async (items, options) => {
      seen.push(options?.appendId);
      return add(items, options);
    };
    await outboxOf(store, 'r1', { 0: [user('input')], 1: [user('step 1')] });
    await expect(flushSessionOutbox(store, 'r1', dyingAfterAppend(session))).rejects.toThrow(
      /killed/,
    );
    // The next flush (e.g. the next claim) re-sends what was not acknowledged: no lease wait.
    expect(await flushSessionOutbox(store, 'r1', session)).toBe(2);
    expect(contents(await session.getItems())).toEqual(['input', 'step 1']);
    expect(seen).toEqual([
      outboxAppendId('r1', 0),
      outboxAppendId('r1', 0),
      outboxAppendId('r1', 1),
    ]);
    expect(outboxAppendId('r1', 0)).toBe('r1:step:0');
    expect(await client.hlen(store.keys('r1').outbox)).toBe(0);
  });

  it('v1: the same crash re-sends only after the lease, and stores the entry twice', async () => {
    const store = new RunStore(client, 'obx');
    const inner = new MemorySession({ sessionId: 'v1' });
    const session = asV1(inner);
    await outboxOf(store, 'r2', { 0: [user('input')] });
    await expect(flushSessionOutbox(store, 'r2', dyingAfterAppend(session))).rejects.toThrow();
    expect(await flushSessionOutbox(store, 'r2', session)).toBe(0); // leased for 30 s
    await new Promise((r) => setTimeout(r, 30));
    expect(await flushSessionOutbox(store, 'r2', session, 10)).toBe(1);
    expect(contents(await inner.getItems())).toEqual(['input', 'input']);
  });

  it('start() refuses a session history with a malformed row, naming the session and index', async () => {
    const agents = buildFixtureAgents(client, { toolDelayMs: 1 });
    const bad = { type: 'message', role: 'user' } as unknown as Item;
    const stored = new MemorySession({ sessionId: 'conv', initialItems: [user('a'), bad] });
    const runner = createDurableRunner({
      connection: redis.connection,
      agents,
      queue: { name: 'outbox-bad-history' },
      session: () => stored,
    });
    try {
      const error = await runner.start('credits', 'hi', { sessionId: 'conv' }).catch((e) => e);
      expect(error).toBeInstanceOf(SessionError);
      expect(error.message).toMatch(/Session "conv" returned a malformed item at index 1 of 2/);
    } finally {
      await runner.close();
    }
  });

  it('importState() refuses a state whose session write did not complete (nothing dropped)', async () => {
    const agents = buildFixtureAgents(client, { toolDelayMs: 1 });
    const failing = new MemorySession({ sessionId: 'local' });
    failing.addItems = async () => {
      throw new SessionError('store down', { operation: 'addItems' });
    };
    const error = await run(agents.credits, 'hi', { session: failing }).catch((e) => e);
    expect(error).toBeInstanceOf(SessionError);
    const state = error.state as RunState;
    expect(state.pendingSessionWrite).toBeDefined();
    const runner = createDurableRunner({
      connection: redis.connection,
      agents,
      queue: { name: 'outbox-import' },
    });
    try {
      await expect(runner.importState(state.toString())).rejects.toThrow(
        /importState\(\): this RunState holds a session write that did not complete/,
      );
    } finally {
      await runner.close();
    }
  });
});
