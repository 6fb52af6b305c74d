import { fc, msg, reasoning, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBothModes, runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import {
  MaxTurnsExceededError,
  ModelBehaviorError,
  ModelCallError,
  RunAbortedError,
  ToolInputError,
  ToolTimeoutError,
} from '../errors/errors.js';
import type { FunctionCallOutputItem, Item } from '../items/item-types.js';
import { REDACTED_TOOL_ERROR, tool } from '../tool/tool.js';
import { run } from './run.js';

const fast = { retry: { backoff: { initialDelayMs: 1, maxDelayMs: 2 } } };

function outputsOf(items: Item[]): Record<string, unknown> {
  return Object.fromEntries(
    items
      .filter((i): i is FunctionCallOutputItem => i.type === 'function_call_output')
      .map((i) => [i.call_id, i.output]),
  );
}

function noDanglingCalls(items: Item[]): boolean {
  const calls = items.filter((i) => i.type === 'function_call').map((i: any) => i.call_id);
  const outs = items.filter((i) => i.type === 'function_call_output').map((i: any) => i.call_id);
  return calls.every((c) => outs.includes(c)) && outs.every((o) => calls.includes(o));
}

describe('invariant 1: one turn = one model call; maxTurns counts model calls', () => {
  it('stops with MaxTurnsExceededError after maxTurns model calls, carrying state and history', async () => {
    const { sync } = await runBothModes(() => {
      const t = tool({ name: 'noop', description: '', execute: () => 'ok' });
      const m = new ScriptedModel([[fc('noop', {}, 'a')]], { whenExhausted: 'repeat_last' });
      let n = 0;
      m.push(() => [fc('noop', {}, `c${n++}`)]);
      return {
        agent: new Agent({
          name: 'loop',
          tools: [t],
          model: new ScriptedModel([(r) => [fc('noop', {}, `c${r.input.length}`)]], {
            whenExhausted: 'repeat_last',
          }),
        }),
        input: 'go',
        options: { maxTurns: 3 },
      };
    });
    expect(sync.error).toBeInstanceOf(MaxTurnsExceededError);
    const err = sync.error as MaxTurnsExceededError;
    expect((err.state as any).currentTurn).toBe(3);
    expect(noDanglingCalls(err.history!)).toBe(true);
  });

  it('retries are not turns', async () => {
    const { sync } = await runBothModes(() => {
      const m = new ScriptedModel([
        { error: new ModelCallError('busy', { statusCode: 503, retryable: true }) },
        [msg('done')],
      ]);
      return {
        agent: new Agent({ name: 'a', model: m }),
        input: 'hi',
        options: { maxTurns: 1, ...fast },
        models: [m],
      };
    });
    expect(sync.result!.finalOutput).toBe('done');
    expect(sync.result!.state.currentTurn).toBe(1);
    expect(sync.result!.usage.requests).toBe(1);
    expect(sync.models[0].requests).toHaveLength(2);
  });
});

describe('invariant 2: a call id is executed at most once', () => {
  it('a call id the model reuses in a later turn is renamed, run once and answered once', async () => {
    const ran: number[] = [];
    const { sync } = await runBothModes(() => {
      const t = tool({
        name: 't',
        description: '',
        parameters: z.object({ n: z.number() }),
        execute: ({ n }) => {
          ran.push(n);
          return `n=${n}`;
        },
      });
      const m = new ScriptedModel([
        [fc('t', { n: 1 }, 'dup')],
        [fc('t', { n: 2 }, 'dup')],
        [msg('done')],
      ]);
      return { agent: new Agent({ name: 'a', tools: [t], model: m }), input: 'x', models: [m] };
    });
    expect(ran).toEqual([1, 2, 1, 2]); // both calls, once per mode
    const last = sync.models[0].requests[2].input;
    expect(noDanglingCalls(last)).toBe(true);
    expect(outputsOf(last)).toEqual({ dup: 'n=1', 't2.0': 'n=2' });
  });

  it('duplicate call ids in one response are told apart; approving one does not approve the other', async () => {
    let runs = 0;
    const t = tool({ name: 't', description: '', needsApproval: true, execute: () => ++runs });
    const a = new Agent({
      name: 'A',
      tools: [t],
      model: new ScriptedModel([
        [fc('t', { n: 1 }, 'dup'), fc('t', { n: 2 }, 'dup')],
        [msg('done')],
      ]),
    });
    const r = await run(a, 'x');
    expect(r.interruptions.map((i) => i.call_id)).toEqual(['dup', 't1.1']);
    r.state.approve(r.interruptions[0]);
    r.state.reject(r.interruptions[1]);
    await run(a, r.state);
    expect(runs).toBe(1);
  });
});

describe('invariant 5: model input never holds an orphan call or output', () => {
  it('every request the model receives is balanced, reasoning kept before its call', async () => {
    const { sync, streamed } = await runBothModes(() => {
      const t = tool({ name: 't', description: '', execute: () => 'r' });
      const m = new ScriptedModel([
        [reasoning('think'), fc('t', {}, 'c1'), fc('t', {}, 'c2')],
        [msg('ok')],
      ]);
      return { agent: new Agent({ name: 'a', tools: [t], model: m }), input: 'x', models: [m] };
    });
    for (const outcome of [sync, streamed]) {
      const second = outcome.models[0].requests[1].input;
      expect(noDanglingCalls(second)).toBe(true);
      const idx = second.findIndex((i) => i.type === 'reasoning');
      expect(second[idx + 1]).toMatchObject({ type: 'function_call', call_id: 'c1' });
    }
  });
});

describe('invariant 6: the run context is never sent to the model', () => {
  it('no request contains the context object', async () => {
    const secret = 'sk-very-secret-context-value';
    const { sync, streamed } = await runBothModes(() => {
      const t = tool({
        name: 'whoami',
        description: '',
        execute: (_a, ctx) => `user ${(ctx.context as any).user}`,
      });
      const m = new ScriptedModel([[fc('whoami', {}, 'c1')], [msg('hi')]]);
      return {
        agent: new Agent({
          name: 'a',
          tools: [t],
          model: m,
          instructions: (ctx) => `help ${(ctx.context as any).user}`,
        }),
        input: 'x',
        options: { context: { user: 'ann', secret } },
        models: [m],
      };
    });
    for (const o of [sync, streamed]) {
      const sent = JSON.stringify(o.models[0].requests);
      expect(sent).not.toContain(secret);
      expect(sent).toContain('user ann');
    }
  });
});

describe('invariant 7: tool failures become model-visible outputs through the error policy', () => {
  it('shows correctable errors, redacts others', async () => {
    const { sync } = await runBothModes(() => {
      const bad = tool({
        name: 'bad',
        description: '',
        execute: () => {
          throw new ToolInputError('order id must start with #');
        },
      });
      const boom = tool({
        name: 'boom',
        description: '',
        execute: () => {
          throw new Error('db password=hunter2 leaked');
        },
      });
      const m = new ScriptedModel([[fc('bad', {}, 'c1'), fc('boom', {}, 'c2')], [msg('sorry')]]);
      return {
        agent: new Agent({ name: 'a', tools: [bad, boom], model: m }),
        input: 'x',
        models: [m],
      };
    });
    const outs = outputsOf(sync.models[0].requests[1].input);
    expect(outs.c1).toBe('Error: order id must start with #');
    expect(outs.c2).toBe(REDACTED_TOOL_ERROR);
    expect(JSON.stringify(sync.result!.history)).not.toContain('hunter2');
  });

  it('errorFunction: null fails the run with ToolCallError', async () => {
    const t = tool({
      name: 'strict',
      description: '',
      errorFunction: null,
      execute: () => {
        throw new Error('nope');
      },
    });
    const m = new ScriptedModel([[fc('strict', {}, 'c1')]]);
    await expect(run(new Agent({ name: 'a', tools: [t], model: m }), 'x')).rejects.toMatchObject({
      name: 'ToolCallError',
      toolName: 'strict',
      callId: 'c1',
    });
  });
});

describe('invariant 8: unknown tools', () => {
  it('raises ModelBehaviorError naming the tool by default', async () => {
    const { sync } = await runBothModes(() => ({
      agent: new Agent({ name: 'a', model: new ScriptedModel([[fc('ghost', {}, 'c1')]]) }),
      input: 'x',
    }));
    expect(sync.error).toBeInstanceOf(ModelBehaviorError);
    expect((sync.error as Error).message).toContain('"ghost"');
  });
  it("returns an error to the model with toolNotFound: 'return_error_to_model'", async () => {
    const { sync } = await runBothModes(() => {
      const real = tool({ name: 'real', description: '', execute: () => 'r' });
      const m = new ScriptedModel([[fc('ghost', {}, 'c1')], [msg('recovered')]]);
      return {
        agent: new Agent({ name: 'a', tools: [real], model: m }),
        input: 'x',
        options: { toolNotFound: 'return_error_to_model' },
        models: [m],
      };
    });
    expect(sync.result!.finalOutput).toBe('recovered');
    expect(outputsOf(sync.models[0].requests[1].input).c1).toContain(
      'tool "ghost" not found. Available tools: real',
    );
  });
});

describe('invariant 10: concurrent calls, outputs in call order', () => {
  it('runs calls concurrently (bounded) and appends outputs in model order', async () => {
    let active = 0;
    let peak = 0;
    const { sync } = await runBothModes(() => {
      const slow = tool({
        name: 'slow',
        description: '',
        parameters: z.object({ ms: z.number() }),
        execute: async ({ ms }) => {
          active++;
          peak = Math.max(peak, active);
          await new Promise((r) => setTimeout(r, ms));
          active--;
          return `slept ${ms}`;
        },
      });
      const calls = [40, 5, 25, 1, 10].map((ms, i) => fc('slow', { ms }, `c${i}`));
      return {
        agent: new Agent({
          name: 'a',
          tools: [slow],
          model: new ScriptedModel([calls, [msg('done')]]),
        }),
        input: 'x',
        options: { maxToolConcurrency: 3 },
      };
    });
    const outs = sync
      .result!.newItems.filter((i) => i.type === 'tool_call_output_item')
      .map((i) => (i.raw_item as FunctionCallOutputItem).call_id);
    expect(outs).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    expect(peak).toBe(3);
  });
});

describe('invariant 12: abort leaves a replayable history', () => {
  it('aborting mid-tool rejects with RunAbortedError whose history has no dangling call', async () => {
    for (const stream of [false, true]) {
      const controller = new AbortController();
      const t = tool({
        name: 'wait',
        description: '',
        execute: (_a, _c, d) =>
          new Promise((_r, reject) =>
            d.signal.addEventListener('abort', () => reject(new Error('aborted'))),
          ),
      });
      const m = new ScriptedModel([[msg('thinking...'), fc('wait', {}, 'c1')], [msg('never')]]);
      setTimeout(() => controller.abort(), 20);
      const outcome = await runMode(
        () => ({
          agent: new Agent({ name: 'a', tools: [t], model: m }),
          input: 'x',
          options: { signal: controller.signal },
        }),
        stream,
      );
      expect(outcome.error).toBeInstanceOf(RunAbortedError);
      const history = (outcome.error as RunAbortedError).history!;
      expect(noDanglingCalls(history)).toBe(true);
      expect(history.some((i) => i.type === 'function_call')).toBe(false);
      expect(m.requests).toHaveLength(1);
    }
  });

  it('aborting mid-stream cancels the model call', async () => {
    const controller = new AbortController();
    const m = new ScriptedModel([{ output: [msg('a long answer '.repeat(50))], delayMs: 0 }], {
      chunkSize: 1,
    });
    const result = await run(new Agent({ name: 'a', model: m }), 'x', {
      stream: true,
      signal: controller.signal,
    });
    let deltas = 0;
    await expect(
      (async () => {
        for await (const e of result) {
          if (e.type === 'raw_model_stream_event' && e.data.type === 'text_delta' && ++deltas === 5)
            controller.abort();
        }
      })(),
    ).rejects.toBeInstanceOf(RunAbortedError);
    expect(deltas).toBeLessThan(50);
    await expect(result.completed).rejects.toBeInstanceOf(RunAbortedError);
  });
});

describe('bad input', () => {
  it('invalid JSON arguments and schema-invalid arguments become model-visible errors; the tool never runs', async () => {
    let executed = 0;
    const { sync } = await runBothModes(() => {
      const t = tool({
        name: 'lookup',
        description: '',
        parameters: z.object({ orderId: z.string().regex(/^#\d+$/) }),
        execute: () => ++executed,
      });
      const m = new ScriptedModel([
        [
          fc('lookup', '{"orderId": ', 'c1'),
          fc('lookup', { orderId: 42 }, 'c2'),
          fc('lookup', { orderId: 'x' }, 'c3'),
        ],
        [msg('ok')],
      ]);
      return { agent: new Agent({ name: 'a', tools: [t], model: m }), input: 'x', models: [m] };
    });
    expect(executed).toBe(0);
    const outs = outputsOf(sync.models[0].requests[1].input);
    expect(outs.c1).toMatch(/^Invalid JSON arguments for tool "lookup"/);
    expect(outs.c2).toMatch(/Invalid arguments for tool "lookup"[\s\S]*orderId/);
    expect(outs.c3).toMatch(/Invalid arguments for tool "lookup"/);
  });

  it('invalid structured output raises ModelBehaviorError with the raw text', async () => {
    const { sync } = await runBothModes(() => ({
      agent: new Agent({
        name: 'a',
        outputType: z.object({ n: z.number() }),
        model: new ScriptedModel([[msg('{"n": "seven"}')]]),
      }),
      input: 'x',
    }));
    expect(sync.error).toBeInstanceOf(ModelBehaviorError);
    expect((sync.error as ModelBehaviorError).rawText).toBe('{"n": "seven"}');
  });

  it('invalidFinalOutput handler supplies an output instead', async () => {
    const result = await run(
      new Agent({
        name: 'a',
        outputType: z.object({ n: z.number() }),
        model: new ScriptedModel([[msg('not json')]]),
      }),
      'x',
      {
        errorHandlers: {
          invalidFinalOutput: (_c, info) => ({ finalOutput: { n: info.rawText.length } }),
        },
      },
    );
    expect(result.finalOutput).toEqual({ n: 8 });
  });

  it('a tool that times out reports the timeout to the model (error_as_result) or raises', async () => {
    const { sync } = await runBothModes(() => {
      const slow = tool({
        name: 'slow',
        description: '',
        timeoutMs: 20,
        execute: () => new Promise((r) => setTimeout(() => r('late'), 200)),
      });
      const m = new ScriptedModel([[fc('slow', {}, 'c1')], [msg('gave up')]]);
      return { agent: new Agent({ name: 'a', tools: [slow], model: m }), input: 'x', models: [m] };
    });
    expect(outputsOf(sync.models[0].requests[1].input).c1).toBe(
      'Error: Tool "slow" (call c1) timed out after 20 ms. Raise the tool\'s timeoutMs or make it faster.',
    );
    const raising = tool({
      name: 'slow',
      description: '',
      timeoutMs: 20,
      timeoutBehavior: 'raise',
      execute: () => new Promise((r) => setTimeout(() => r('late'), 200)),
    });
    await expect(
      run(
        new Agent({
          name: 'a',
          tools: [raising],
          model: new ScriptedModel([[fc('slow', {}, 'c1')]]),
        }),
        'x',
      ),
    ).rejects.toBeInstanceOf(ToolTimeoutError);
  });

  it('a model that fails twice then succeeds: one set of items, usage counted once', async () => {
    const { sync, streamed } = await runBothModes(() => {
      const err = () =>
        new ModelCallError('overloaded', { statusCode: 529, retryable: true, retryAfterMs: 1 });
      const m = new ScriptedModel([
        { error: err() },
        { error: err() },
        { output: [msg('finally')], usage: { inputTokens: 7, outputTokens: 3 } },
      ]);
      return { agent: new Agent({ name: 'a', model: m }), input: 'x', options: fast, models: [m] };
    });
    expect(sync.result!.finalOutput).toBe('finally');
    expect(sync.models[0].requests).toHaveLength(3);
    expect(sync.result!.usage).toMatchObject({ requests: 1, inputTokens: 7, outputTokens: 3 });
    const text = streamed.events
      .filter((e) => e.type === 'raw_model_stream_event' && e.data.type === 'text_delta')
      .map((e: any) => e.data.delta)
      .join('');
    expect(text).toBe('finally');
  });

  it('a 400 is not retried', async () => {
    const { sync } = await runBothModes(() => {
      const m = new ScriptedModel([
        { error: new ModelCallError('bad request', { statusCode: 400, retryable: false }) },
        [msg('unreachable')],
      ]);
      return { agent: new Agent({ name: 'a', model: m }), input: 'x', options: fast, models: [m] };
    });
    expect(sync.error).toMatchObject({ statusCode: 400 });
    expect(sync.models[0].requests).toHaveLength(1);
  });

  it('a stream that fails after emitting output is not replayed', async () => {
    const m = new ScriptedModel([
      { error: new ModelCallError('reset', { retryable: true }), afterDeltas: 2 },
      [msg('second')],
    ]);
    const result = await run(new Agent({ name: 'a', model: m }), 'x', { stream: true, ...fast });
    await expect(result.completed).rejects.toMatchObject({ message: 'reset' });
    expect(m.requests).toHaveLength(1);
  });
});
