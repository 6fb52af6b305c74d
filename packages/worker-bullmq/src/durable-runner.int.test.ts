/**
 * The runner against a real Redis with in-process workers: parity with in-process `run()`,
 * export/import of `RunState`, resumable streams, cancel, back-pressure, trace context,
 * sessions and failures.
 */
import {
  Agent,
  BatonError,
  MemorySession,
  ModelBehaviorError,
  RunState,
  run,
  tool,
  UserError,
} from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildFixtureAgents, writerText } from './__tests__/fixtures.js';
import { startRedisServer, type TestRedis } from './__tests__/redis-server.js';
import {
  type AgentRegistry,
  BackpressureError,
  createDurableRunner,
  createDurableWorker,
  type DurableRunEvent,
  type DurableRunnerOptions,
  runKeys,
  transcriptFromEvents,
} from './index.js';

let redis: TestRedis;
let sinkRedis: Redis;
beforeAll(async () => {
  redis = await startRedisServer();
  sinkRedis = new Redis(redis.connection);
});
afterAll(async () => {
  sinkRedis?.disconnect();
  await redis?.dispose();
});

async function withFleet<T>(
  queue: string,
  agents: AgentRegistry,
  fn: (f: {
    runner: ReturnType<typeof createDurableRunner>;
    worker: ReturnType<typeof createDurableWorker>;
  }) => Promise<T>,
  extra: Partial<DurableRunnerOptions> = {},
): Promise<T> {
  const runner = createDurableRunner({
    connection: redis.connection,
    agents,
    queue: { name: queue },
    ...extra,
  });
  const worker = createDurableWorker({
    connection: redis.connection,
    agents,
    queue: { name: queue },
    concurrency: 4,
    session: extra.session,
    coalescing: { maxDelayMs: 40 },
  });
  try {
    return await fn({ runner, worker });
  } finally {
    await worker.close();
    await runner.close();
  }
}

async function collect(
  stream: AsyncIterable<DurableRunEvent>,
  limit = Number.POSITIVE_INFINITY,
): Promise<DurableRunEvent[]> {
  const out: DurableRunEvent[] = [];
  for await (const e of stream) {
    out.push(e);
    if (out.length >= limit) break;
  }
  return out;
}

/** Triage hands off to a refund agent that looks up the order and answers with a structured ticket. */
function supportDesk(): AgentRegistry {
  const Ticket = z.object({
    orderId: z.string(),
    action: z.enum(['refund', 'deny']),
    amountCents: z.number().int(),
  });
  const lookup = tool({
    name: 'lookup_order',
    description: 'Look up an order',
    parameters: z.object({ orderId: z.string() }),
    effect: 'pure',
    execute: ({ orderId }) => ({ orderId, priceCents: 1299, status: 'delivered damaged' }),
  });
  const refundModel = new ScriptedModel(
    [
      (req) =>
        req.input.some((i) => i.type === 'function_call_output' && i.call_id === 'c1')
          ? [msg(JSON.stringify({ orderId: '#42', action: 'refund', amountCents: 1299 }))]
          : [fc('lookup_order', { orderId: '#42' }, 'c1')],
    ],
    { whenExhausted: 'repeat_last' },
  );
  const refund = new Agent({
    name: 'Refund Agent',
    instructions: 'Handle refunds.',
    handoffDescription: 'Refunds.',
    tools: [lookup],
    outputType: Ticket,
    model: refundModel,
  });
  const triageModel = new ScriptedModel(
    [() => [msg('Routing you to refunds.'), fc('transfer_to_refund_agent', {}, 'h1')]],
    { whenExhausted: 'repeat_last' },
  );
  return {
    triage: new Agent({
      name: 'Triage Agent',
      instructions: 'Route the customer.',
      handoffs: [refund],
      model: triageModel,
    }),
  };
}

function normalized(json: Record<string, any>) {
  // Each worker step resumes the stored state, so its resumeGeneration counts the steps.
  const { runId: _r, trace: _t, resumeGeneration: _g, ...rest } = json;
  return rest;
}

describe('durable runner', () => {
  it('parity: the same scenario in process and through the worker gives the same items and RunState', async () => {
    const agents = supportDesk();
    const local = await run(agents.triage, 'My mug arrived broken, order #42.');
    await withFleet('parity', agents, async ({ runner }) => {
      const runId = await runner.start('triage', 'My mug arrived broken, order #42.');
      const done = await runner.waitFor(runId);
      expect(done.status).toBe('completed');
      expect(done.finalOutput).toEqual(local.finalOutput);
      expect(done.currentAgent).toBe('Refund Agent');
      const durable = JSON.parse(await runner.exportState(runId));
      expect(normalized(durable)).toEqual(normalized(local.state.toJSON()));
      expect(durable.runId).toBe(runId);
      const items = (await collect(runner.stream(runId))).filter((e) => e.type === 'run_item');
      expect(items.map((e) => (e as any).item)).toEqual(durable.generatedItems);
    });
  });

  it('exports a paused run that run() resumes in process, and imports an in-process paused run', async () => {
    const agents = buildFixtureAgents(sinkRedis);
    await withFleet('export-import', agents, async ({ runner }) => {
      const runId = await runner.start('refunds', 'exp-1');
      await runner.waitFor(runId, { statuses: ['paused'] });
      const state = await RunState.fromString(agents.refunds, await runner.exportState(runId));
      expect(state.runId).toBe(runId);
      for (const item of state.getInterruptions()) state.approve(item);
      const resumed = await run(agents.refunds, state);
      expect(resumed.finalOutput).toBe('Refund step finished: refunded exp-1');

      const local = await run(agents.refunds, 'imp-1');
      expect(local.interruptions).toHaveLength(1);
      const imported = await runner.importState(local.state.toString());
      expect(imported).toBe(local.state.runId);
      const info = (await runner.get(imported))!;
      expect(info.status).toBe('paused');
      expect(info.interruptions.map((i) => i.call_id)).toEqual(['refund-1']);
      expect(await runner.queue.getJobCounts('waiting', 'active')).toEqual({
        waiting: 0,
        active: 0,
      });
      await runner.approve(imported, 'refund-1');
      expect((await runner.waitFor(imported, { statuses: ['completed'] })).finalOutput).toBe(
        'Refund step finished: refunded imp-1',
      );
      await expect(runner.importState(local.state.toString())).rejects.toThrow(/already exists/);
      await expect(runner.importState('{"schemaVersion"')).rejects.toThrow(UserError);
    });
  });

  it('stream reconnect delivers every event once, in order', async () => {
    const agents = buildFixtureAgents(sinkRedis, { deltaDelayMs: 15 });
    await withFleet('stream', agents, async ({ runner }) => {
      const runId = await runner.start('writer', 'Ada');
      const received: DurableRunEvent[] = [];
      let lastEventId: string | undefined;
      for (let connection = 0; connection < 50; connection++) {
        const batch = await collect(runner.stream(runId, { lastEventId }), 2);
        received.push(...batch);
        lastEventId = batch.at(-1)?.id ?? lastEventId;
        if (batch.some((e) => e.type === 'final_output')) break;
      }
      const all = (await sinkRedis.xrange(runKeys(runId).events, '-', '+')).map(([id]) => id);
      expect(received.map((e) => e.id)).toEqual(all);
      expect(new Set(received.map((e) => e.id)).size).toBe(received.length);
      expect(received.at(-1)?.type).toBe('final_output');
      expect(transcriptFromEvents(received)).toEqual([writerText('Ada')]);
      expect(await collect(runner.stream(runId, { lastEventId: received.at(-1)!.id }))).toEqual([]);
    });
  });

  it('cancel fences out the worker mid-step and ends the stream', async () => {
    const agents = buildFixtureAgents(sinkRedis, { deltaDelayMs: 30 });
    await withFleet('cancel', agents, async ({ runner, worker }) => {
      const runId = await runner.start('writer', 'Bob');
      const first = await collect(runner.stream(runId), 3);
      expect(first.at(-1)?.type).toBe('text_delta');
      const stateBefore = await sinkRedis.get(runKeys(runId).state);
      expect(await runner.cancel(runId, { by: 'ops' })).toBe(true);
      expect(await runner.cancel(runId)).toBe(false);
      const rest = await collect(runner.stream(runId, { lastEventId: first.at(-1)!.id }));
      expect(rest.at(-1)).toMatchObject({ type: 'cancelled', by: 'ops' });
      await runner.waitFor(runId, { statuses: ['cancelled'] });
      await new Promise((r) => setTimeout(r, 1500));
      expect(worker.stats.fencedSteps).toBe(1);
      expect(await sinkRedis.get(runKeys(runId).state)).toBe(stateBefore);
      expect(await sinkRedis.ttl(runKeys(runId).meta)).toBeGreaterThan(0);
    });
  });

  it('back-pressure: start refuses past queue.maxDepth with a BackpressureError', async () => {
    const agents = buildFixtureAgents(sinkRedis);
    const runner = createDurableRunner({
      connection: redis.connection,
      agents,
      queue: { name: 'backpressure', maxDepth: 3 },
    });
    try {
      for (let i = 0; i < 3; i++) await runner.start('credits', `bp-${i}`);
      const error = await runner.start('credits', 'bp-3').catch((e) => e);
      expect(error).toBeInstanceOf(BackpressureError);
      expect(BatonError.isInstance(error)).toBe(true);
      expect([error.depth, error.maxDepth]).toEqual([3, 3]);
      const worker = createDurableWorker({
        connection: redis.connection,
        agents: buildFixtureAgents(sinkRedis, { toolDelayMs: 1 }),
        queue: { name: 'backpressure' },
      });
      try {
        await new Promise((r) => setTimeout(r, 300));
        const id = await runner.start('credits', 'bp-4');
        expect((await runner.waitFor(id)).status).toBe('completed');
      } finally {
        await worker.close();
      }
    } finally {
      await runner.close();
    }
  });

  it('stores the W3C traceparent with the run and continues its trace id in the RunState', async () => {
    const agents = buildFixtureAgents(sinkRedis, { toolDelayMs: 1 });
    await withFleet('trace', agents, async ({ runner }) => {
      const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      const runId = await runner.start('credits', 'tp', {
        traceparent,
        workflowName: 'credits flow',
      });
      const done = await runner.waitFor(runId);
      expect(done.traceparent).toBe(traceparent);
      expect(JSON.parse(await runner.exportState(runId)).trace).toMatchObject({
        traceId: 'trace_4bf92f3577b34da6a3ce929d0e0e4736',
        workflowName: 'credits flow',
      });
      await expect(runner.start('credits', 'x', { traceparent: 'nope' })).rejects.toThrow(
        /Invalid traceparent/,
      );
      await expect(runner.start('nobody', 'x')).rejects.toThrow(/No agent "nobody"/);
    });
  });

  it('sessions: history is read at start and each step is appended once', async () => {
    const sessions = new Map<string, MemorySession>();
    const session = (id: string) =>
      sessions.get(id) ?? sessions.set(id, new MemorySession({ sessionId: id })).get(id)!;
    const agents = buildFixtureAgents(sinkRedis, { toolDelayMs: 1 });
    await withFleet(
      'session',
      agents,
      async ({ runner }) => {
        const first = await runner.start('credits', 'first', { sessionId: 's1' });
        await runner.waitFor(first);
        const items = await session('s1').getItems();
        expect(items).toHaveLength(8);
        expect(items[0]).toEqual({ type: 'message', role: 'user', content: 'first' });
        const second = await runner.start('credits', 'second', { sessionId: 's1' });
        // The model sees the three tool outputs of the history, so it answers at once.
        expect((await runner.waitFor(second)).finalOutput).toBe(
          'apply_credit done 3 times for second',
        );
        expect(JSON.parse(await runner.exportState(second)).originalInput).toHaveLength(9);
        const after = await session('s1').getItems();
        expect(after).toHaveLength(10);
        expect(after.slice(8)).toEqual([
          { type: 'message', role: 'user', content: 'second' },
          expect.objectContaining({ type: 'message', role: 'assistant' }),
        ]);
        expect(await sinkRedis.hlen(runKeys(second).outbox)).toBe(0);
      },
      { session },
    );
  });

  it('a non-retryable failure fails the run with its error kind', async () => {
    const broken = new Agent({
      name: 'Broken',
      model: new ScriptedModel([{ error: new ModelBehaviorError('The model produced garbage.') }]),
    });
    await withFleet('failure', { broken }, async ({ runner }) => {
      const runId = await runner.start('broken', 'hi');
      const done = await runner.waitFor(runId);
      expect(done.status).toBe('failed');
      expect(done.error).toEqual({
        kind: 'ModelBehaviorError',
        message: 'The model produced garbage.',
      });
      expect((await collect(runner.stream(runId))).at(-1)).toMatchObject({ type: 'failed' });
    });
  });
});
