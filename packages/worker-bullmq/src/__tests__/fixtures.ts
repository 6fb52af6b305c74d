/**
 * The agents of the crash tests, imported by the test files and by the worker child processes
 * (so every process registers the same agents). Models are `ScriptedModel`s with function steps
 * that derive their answer from the request alone, so any process can play any turn. Tools
 * record what they do in Redis ("the sink"), which the tests read back.
 */
import { Agent, type Model, type ModelRequest, type ModelStreamEvent, tool } from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import type { Redis } from 'ioredis';
import { z } from 'zod';

/** Tool turns before the final answer. */
export const TOOL_TURNS = 3;

export interface FixtureOptions {
  /** How long a tool works between recording its start and applying its effect (ms). */
  toolDelayMs?: number;
  /** Pause before each streamed text delta of the writer (ms). */
  deltaDelayMs?: number;
  /**
   * A sink key: while it exists, a tool that has recorded its start waits before doing its work
   * (polling every 10 ms), and adds its logical call to `sink.held` once. The crash tests set it
   * on the worker they are about to kill and kill it once a call is held, so the kill lands
   * while a tool is in flight however slow the machine is.
   */
  holdKey?: string;
}

/** Sink keys the tests read. */
export const sink = {
  /** Hash logical call → executions started. */
  exec: 'sink:exec',
  /** Hash logical call → applications. */
  applied: 'sink:applied',
  /** Hash logical call → idempotency keys seen (comma-separated, first one only unless they differ). */
  keys: 'sink:keys',
  /** Counter of model calls (all agents). */
  modelCalls: 'sink:model-calls',
  /** While set, tools of a worker built with `holdKey: sink.hold` wait after their start. */
  hold: 'sink:hold',
  /** Set of logical calls that waited in the hold (they cannot finish while it is set). */
  held: 'sink:held',
};

function outputsIn(request: ModelRequest): number {
  return request.input.filter((i) => i.type === 'function_call_output').length;
}

function lastUserText(request: ModelRequest): string {
  for (let i = request.input.length - 1; i >= 0; i--) {
    const item = request.input[i] as { type: string; role?: string; content?: unknown };
    if (item.type === 'message' && item.role === 'user')
      return typeof item.content === 'string' ? item.content : JSON.stringify(item.content);
  }
  return '';
}

/** A model that calls `toolName` TOOL_TURNS times (call ids t1..tN), then answers. */
function toolTurnsModel(toolName: string): ScriptedModel {
  return new ScriptedModel(
    [
      (request) => {
        const done = outputsIn(request);
        if (done < TOOL_TURNS) return [fc(toolName, { n: done + 1 }, `t${done + 1}`)];
        return [msg(`${toolName} done ${done} times for ${lastUserText(request)}`)];
      },
    ],
    { whenExhausted: 'repeat_last' },
  );
}

/** The text the writer streams for `input`. */
export function writerText(input: string): string {
  return `Once upon a time, ${input} wrote a story about durable workers that never lost a word. `.repeat(
    3,
  );
}

/** Wraps a model: counts calls in Redis and paces streamed text deltas. */
function countedModel(inner: Model, redis: Redis, deltaDelayMs: number): Model {
  return {
    specificationVersion: 'v1',
    provider: inner.provider,
    modelId: inner.modelId,
    async getResponse(request) {
      await redis.incr(sink.modelCalls);
      return inner.getResponse(request);
    },
    async *getStreamedResponse(request): AsyncIterable<ModelStreamEvent> {
      await redis.incr(sink.modelCalls);
      for await (const event of inner.getStreamedResponse(request)) {
        if (event.type === 'text_delta' && deltaDelayMs > 0)
          await new Promise((r) => setTimeout(r, deltaDelayMs));
        yield event;
      }
    },
  };
}

/** Builds the registry. `redis` is the sink connection of this process. */
export function buildFixtureAgents(redis: Redis, options: FixtureOptions = {}) {
  const toolDelayMs = options.toolDelayMs ?? 150;
  const deltaDelayMs = options.deltaDelayMs ?? 0;
  const pause = async (logical: string) => {
    let held = false;
    while (options.holdKey && (await redis.exists(options.holdKey)) === 1) {
      if (!held) await redis.sadd(sink.held, logical);
      held = true;
      await new Promise((r) => setTimeout(r, 10));
    }
    await new Promise((r) => setTimeout(r, toolDelayMs));
  };

  const applyCredit = tool({
    name: 'apply_credit',
    description: 'Apply a credit (idempotent by key).',
    parameters: z.object({ n: z.number().int() }),
    effect: 'idempotent',
    execute: async ({ n }, ctx, details) => {
      const logical = `${ctx.runId}/${n}`;
      await redis.hincrby(sink.exec, logical, 1);
      if ((await redis.hsetnx(sink.keys, logical, details.idempotencyKey)) === 0) {
        const first = await redis.hget(sink.keys, logical);
        if (first !== details.idempotencyKey)
          await redis.hset(sink.keys, logical, `${first},${details.idempotencyKey}`);
      }
      await pause(logical);
      if (await redis.set(`sink:key:${details.idempotencyKey}`, '1', 'NX'))
        await redis.hincrby(sink.applied, logical, 1);
      return `credit ${n} applied (attempt ${details.attempt})`;
    },
  });

  const chargeCard = tool({
    name: 'charge_card',
    description: 'Charge a card (not idempotent).',
    parameters: z.object({ n: z.number().int() }),
    execute: async ({ n }, ctx) => {
      const logical = `${ctx.runId}/${n}`;
      await redis.hincrby(sink.exec, logical, 1);
      await pause(logical);
      await redis.hincrby(sink.applied, logical, 1);
      return `charged ${n}`;
    },
  });

  const issueRefund = tool({
    name: 'issue_refund',
    description: "Refund an order (needs a person's approval).",
    parameters: z.object({ orderId: z.string() }),
    needsApproval: true,
    execute: async ({ orderId }, ctx) => {
      await redis.hincrby(sink.exec, `${ctx.runId}/refund`, 1);
      return `refunded ${orderId}`;
    },
  });
  const refundModel = new ScriptedModel(
    [
      (request) => {
        const output = request.input.find((i) => i.type === 'function_call_output') as
          | { output?: unknown }
          | undefined;
        if (!output) return [fc('issue_refund', { orderId: lastUserText(request) }, 'refund-1')];
        return [msg(`Refund step finished: ${String(output.output)}`)];
      },
    ],
    { whenExhausted: 'repeat_last' },
  );

  const creditModel = countedModel(toolTurnsModel('apply_credit'), redis, 0);
  const chargeModel = countedModel(toolTurnsModel('charge_card'), redis, 0);
  const writerModel = countedModel(
    new ScriptedModel([(request) => [msg(writerText(lastUserText(request)))]], {
      whenExhausted: 'repeat_last',
      chunkSize: 6,
    }),
    redis,
    deltaDelayMs,
  );

  return {
    credits: new Agent({
      name: 'Credit Agent',
      instructions: 'Apply three credits.',
      tools: [applyCredit],
      model: creditModel,
    }),
    charges: new Agent({
      name: 'Charge Agent',
      instructions: 'Charge three times.',
      tools: [chargeCard],
      model: chargeModel,
    }),
    writer: new Agent({ name: 'Writer', instructions: 'Write a story.', model: writerModel }),
    refunds: new Agent({
      name: 'Refund Agent',
      instructions: 'Refund orders after approval.',
      tools: [issueRefund],
      model: refundModel,
    }),
  };
}
