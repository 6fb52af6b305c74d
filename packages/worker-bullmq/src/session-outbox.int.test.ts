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
import {
  createDurableRunner,
  createDurableWorker,
  DurableRunTimeoutError,
  type RunStatus,
} from './index.js';
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

/**
 * A session whose append of a step's items (picked by `holds`) waits until released: the step is
 * committed and its session append is in flight — the window a reader of the run's status sees.
 */
function heldSession(sessionId: string, holds: (items: Item[]) => boolean) {
  const session = new MemorySession({ sessionId });
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let entered!: () => void;
  const held = new Promise<void>((r) => {
    entered = r;
  });
  const add = session.addItems.bind(session);
  session.addItems = async (items, options) => {
    if (holds(items)) {
      entered();
      await gate;
    }
    return add(items, options);
  };
  return { session, held, release };
}

const isAnswer = (items: Item[]) =>
  items.some((i) => i.type === 'message' && (i as { role?: string }).role === 'assistant');
const isRefundCall = (items: Item[]) =>
  items.some((i) => i.type === 'function_call' && i.call_id === 'refund-1');

describe.each([
  { status: 'completed' as RunStatus, agent: 'credits', holds: isAnswer, items: 8 },
  { status: 'paused' as RunStatus, agent: 'refunds', holds: isRefundCall, items: 2 },
])('waitFor() and the session outbox ($status)', ({ status, agent, holds, items }) => {
  it(`reports a ${status} run only once the session holds its last step`, async () => {
    const agents = buildFixtureAgents(client, { toolDelayMs: 1 });
    const { session, held, release } = heldSession(`held-${status}`, holds);
    const queue = { name: `outbox-wait-${status}` };
    const runner = createDurableRunner({
      connection: redis.connection,
      agents,
      queue,
      session: () => session,
    });
    const worker = createDurableWorker({
      connection: redis.connection,
      agents,
      queue,
      session: () => session,
    });
    try {
      const runId = await runner.start(agent, 'first', { sessionId: session.sessionId });
      await held; // the step is committed; its session append has not reached the session
      expect((await runner.get(runId))?.status).toBe(status);
      expect((await runner.get(runId))?.sessionPending).toBe(true);
      // Nothing can reach the session while it is held, so this wait must time out.
      const early = await runner.waitFor(runId, { timeoutMs: 150 }).catch((e) => e);
      expect(early).toBeInstanceOf(DurableRunTimeoutError);
      expect(early.status).toBe(status);
      expect(early.message).toMatch(/its session appends are still not stored/);
      release();
      const done = await runner.waitFor(runId);
      expect(done.status).toBe(status);
      expect(done.sessionPending).toBe(false);
      expect(await session.getItems()).toHaveLength(items);
    } finally {
      release();
      await worker.close();
      await runner.close();
    }
  });
});

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
