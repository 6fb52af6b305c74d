/**
 * One model call as the loop makes it: what counts as streamed output (never replayed), a
 * stream that ends without `response_done`, responses without a valid output list, the
 * server's acknowledgement for stateful requests, aborts around a call, per-call timers, the
 * `onLLMStart`/`onLLMEnd` hooks and the generation span.
 */
import { msg, RecordingTraceProcessor, ScriptedModel } from '@baton/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import {
  InputGuardrailTripwireTriggered,
  ModelBehaviorError,
  ModelCallError,
  RunAbortedError,
} from '../errors/errors.js';
import { inputGuardrail } from '../guardrail/guardrail.js';
import type { Item } from '../items/item-types.js';
import type { Model, ModelRequest, ModelResponse, ModelStreamEvent } from '../model/model.js';
import { setTraceProcessors } from '../tracing/processors.js';
import type { GenerationSpanData } from '../tracing/span-types.js';
import { run, runStep } from './run.js';

afterEach(() => {
  setTraceProcessors([]);
  vi.restoreAllMocks();
});

const fast = { retry: { maxRetries: 2, backoff: { initialDelayMs: 1, maxDelayMs: 1 } } };
const answer = (text: string, responseId?: string): ModelResponse => ({
  output: [msg(text)],
  usage: {},
  responseId,
});

/**
 * A model whose streams play `scripts[i]` for the i-th request (then throw `error` if the
 * script ends without `response_done`); `getResponse` answers 'done'. Records requests.
 */
function streamingModel(scripts: ModelStreamEvent[][], error?: () => unknown) {
  const requests: ModelRequest[] = [];
  const model: Model = {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: 'streams',
    async getResponse(request) {
      requests.push(request);
      return answer('done');
    },
    async *getStreamedResponse(request) {
      requests.push(request);
      const script = scripts[Math.min(requests.length - 1, scripts.length - 1)];
      for (const event of script) yield event;
      if (error && !script.some((e) => e.type === 'response_done')) throw error();
    },
  };
  return { model, requests };
}

const done = (text = 'done', responseId?: string): ModelStreamEvent => ({
  type: 'response_done',
  response: answer(text, responseId),
});
const started: ModelStreamEvent = { type: 'response_started' };
const outputItem: Item = msg('partial');

describe('streamed output is never replayed', () => {
  const firstOutputs: [string, ModelStreamEvent][] = [
    ['a text delta', { type: 'text_delta', delta: 'Hel', outputIndex: 0 }],
    [
      'function call arguments',
      { type: 'function_call_arguments_delta', delta: '{"a', callId: 'c1', outputIndex: 0 },
    ],
    ['a reasoning delta', { type: 'reasoning_delta', delta: 'thinking', outputIndex: 0 }],
    ['an added output item', { type: 'output_item_added', item: outputItem, outputIndex: 0 }],
    ['a finished output item', { type: 'output_item_done', item: outputItem, outputIndex: 0 }],
  ];
  for (const [what, event] of firstOutputs) {
    it(`a stream that fails after ${what} fails the run (no second attempt)`, async () => {
      const reset = new ModelCallError('connection reset', { retryable: true });
      const { model, requests } = streamingModel(
        [
          [started, event],
          [started, done()],
        ],
        () => reset,
      );
      const result = await run(new Agent({ name: 'A', model }), 'x', { stream: true, ...fast });
      await expect(result.completed).rejects.toBe(reset);
      expect(requests).toHaveLength(1);
    });
  }

  it('a stream that fails before any output is retried', async () => {
    const reset = new ModelCallError('connection reset', { retryable: true });
    const { model, requests } = streamingModel([[started], [started, done('second')]], () => reset);
    const result = await run(new Agent({ name: 'A', model }), 'x', { stream: true, ...fast });
    await result.completed;
    expect(result.finalOutput).toBe('second');
    expect(requests).toHaveLength(2);
  });
});

describe('a stream without response_done', () => {
  it('is a retryable ModelCallError when nothing was streamed: the retry answers', async () => {
    const { model, requests } = streamingModel([[started], [started, done('second')]]);
    const result = await run(new Agent({ name: 'A', model }), 'x', { stream: true, ...fast });
    await result.completed;
    expect(result.finalOutput).toBe('second');
    expect(requests).toHaveLength(2);
  });

  it('is a ModelCallError that is not retried once output was streamed', async () => {
    const delta: ModelStreamEvent = { type: 'text_delta', delta: 'Hel', outputIndex: 0 };
    const { model, requests } = streamingModel([
      [started, delta],
      [started, done()],
    ]);
    const result = await run(new Agent({ name: 'A', model }), 'x', { stream: true, ...fast });
    const error = await result.completed.catch((e) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.message).toBe('The model stream ended without a response_done event.');
    expect(error.retryable).toBe(false);
    expect(requests).toHaveLength(1);
  });
});

describe('responses without a valid output list (both modes)', () => {
  const cases: [string, unknown][] = [
    ['a null item', [msg('ok'), null]],
    ['an item without a string type', [{ role: 'assistant' }]],
    ['an item with a numeric type', [{ type: 7 }]],
  ];
  for (const stream of [false, true]) {
    for (const [what, output] of cases) {
      it(`${what} is a ModelBehaviorError naming the model (${stream ? 'streamed' : 'non-streamed'})`, async () => {
        const bad = { output, usage: {} } as unknown as ModelResponse;
        const { model } = streamingModel([[started, { type: 'response_done', response: bad }]]);
        model.getResponse = async () => bad;
        const outcome = await runMode(
          () => ({ agent: new Agent({ name: 'A', model }), input: 'x' }),
          stream,
        );
        expect(outcome.error).toBeInstanceOf(ModelBehaviorError);
        expect((outcome.error as Error).message).toBe(
          'Model "test:streams" returned a response without a valid output list (every item needs a string "type"). Check the Model implementation.',
        );
      });
    }
  }
});

describe('stateful requests (previousResponseId) and the server acknowledgement', () => {
  it('a failure after response_started without a response id is retried', async () => {
    const reset = new ModelCallError('connection reset', { retryable: true });
    const { model, requests } = streamingModel(
      [[started], [started, done('second', 'resp_2')]],
      () => reset,
    );
    const result = await run(new Agent({ name: 'A', model }), 'x', {
      stream: true,
      previousResponseId: 'resp_0',
      ...fast,
    });
    await result.completed;
    expect(result.finalOutput).toBe('second');
    expect(requests).toHaveLength(2);
  });

  it('a timeout is not retried for a stateful request (the server may have taken it)', async () => {
    const never = new Promise<never>(() => {});
    const requests: ModelRequest[] = [];
    const model: Model = {
      specificationVersion: 'v1',
      provider: 'test',
      modelId: 'slow',
      async getResponse(request) {
        requests.push(request);
        return never;
      },
      async *getStreamedResponse() {
        yield* [];
        await never;
      },
    };
    const agent = new Agent({ name: 'A', model, modelSettings: { timeoutMs: 20 } });
    const error = await run(agent, 'x', { previousResponseId: 'resp_0', ...fast }).catch((e) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ code: 'timeout', replaySafe: false });
    expect(error.message).toMatch(
      /\[Not retried \(attempt 1 of 3\): the request chains to server state/,
    );
    expect(requests).toHaveLength(1);
  });

  it('the idle-timeout error names the limit', async () => {
    const never = new Promise<never>(() => {});
    const model: Model = {
      specificationVersion: 'v1',
      provider: 'test',
      modelId: 'idle',
      getResponse: async () => answer('unused'),
      async *getStreamedResponse() {
        yield started;
        await never;
      },
    };
    const agent = new Agent({ name: 'A', model, modelSettings: { streamIdleTimeoutMs: 20 } });
    const result = await run(agent, 'x', { stream: true, retry: { maxRetries: 0 } });
    const error = await result.completed.catch((e) => e);
    expect(error.message).toMatch(
      /^Model "test:idle" sent no stream event for 20 ms \(modelSettings\.streamIdleTimeoutMs\); the call was cancelled\./,
    );
  });
});

describe('aborts around a model call', () => {
  it('a parallel input guardrail tripping mid-call fails the run with its tripwire, no retry', async () => {
    const requests: ModelRequest[] = [];
    const model: Model = {
      specificationVersion: 'v1',
      provider: 'test',
      modelId: 'aborted',
      getResponse: (request) =>
        new Promise((_, reject) => {
          requests.push(request);
          request.signal?.addEventListener('abort', () =>
            reject(new ModelCallError('request aborted', { retryable: true })),
          );
        }),
      getStreamedResponse: () => {
        throw new Error('unused');
      },
    };
    const agent = new Agent({
      name: 'A',
      model,
      inputGuardrails: [
        inputGuardrail({
          name: 'block',
          execute: async () => {
            await new Promise((r) => setTimeout(r, 10));
            return { tripwireTriggered: true };
          },
        }),
      ],
    });
    const error = await run(agent, 'x', fast).catch((e) => e);
    expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(requests).toHaveLength(1);
  });

  it("the run's abort after streamed output is a RunAbortedError, not the model's own error", async () => {
    const controller = new AbortController();
    const model: Model = {
      specificationVersion: 'v1',
      provider: 'test',
      modelId: 'cut',
      getResponse: async () => answer('unused'),
      async *getStreamedResponse(request) {
        yield started;
        yield { type: 'text_delta', delta: 'Hel', outputIndex: 0 };
        controller.abort();
        request.signal?.throwIfAborted();
        throw new Error('socket closed');
      },
    };
    const result = await run(new Agent({ name: 'A', model }), 'x', {
      stream: true,
      signal: controller.signal,
    });
    await expect(result.completed).rejects.toBeInstanceOf(RunAbortedError);
  });

  it('an abandoned stream is not read on after the abort', async () => {
    const controller = new AbortController();
    let pulledAfterAbort = 0;
    const model: Model = {
      specificationVersion: 'v1',
      provider: 'test',
      modelId: 'chatty',
      getResponse: async () => answer('unused'),
      async *getStreamedResponse() {
        yield started;
        for (let i = 0; i < 50; i++) {
          if (i === 2) controller.abort();
          if (controller.signal.aborted) pulledAfterAbort++;
          await null;
          yield { type: 'text_delta', delta: `${i} `, outputIndex: 0 };
        }
        yield done();
      },
    };
    const result = await run(new Agent({ name: 'A', model }), 'x', {
      stream: true,
      signal: controller.signal,
    });
    await expect(result.completed).rejects.toBeInstanceOf(RunAbortedError);
    await new Promise((r) => setTimeout(r, 20));
    expect(pulledAfterAbort).toBeLessThanOrEqual(1);
  });
});

describe('per-call timers', () => {
  for (const stream of [false, true]) {
    it(`the timeout timer of an answered call is cleared (${stream ? 'streamed' : 'non-streamed'})`, async () => {
      const set = vi.spyOn(globalThis, 'setTimeout');
      const clear = vi.spyOn(globalThis, 'clearTimeout');
      const agent = new Agent({
        name: 'A',
        model: new ScriptedModel([[msg('quick')]]),
        modelSettings: { timeoutMs: 60_000 },
      });
      await runMode(() => ({ agent, input: 'x' }), stream);
      const armed = set.mock.results.filter((_, i) => set.mock.calls[i][1] === 60_000);
      expect(armed).toHaveLength(1);
      expect(clear).toHaveBeenCalledWith(armed[0].value);
    });
  }
});

describe('hooks and the generation span around a model call (both modes)', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`onLLMStart sees the instructions and input; onLLMEnd the response; empty hook objects are fine (${mode})`, async () => {
      const seen: unknown[] = [];
      const agent = new Agent({
        name: 'A',
        instructions: 'Be brief.',
        model: new ScriptedModel([[msg('hi there')]], { whenExhausted: 'repeat_last' }),
        hooks: {},
      });
      const hooks = {
        onLLMStart: (_c: unknown, _a: unknown, info: unknown) => void seen.push(info),
        onLLMEnd: (_c: unknown, _a: unknown, response: ModelResponse) =>
          void seen.push(response.output),
      };
      const outcome = await runMode(() => ({ agent, input: 'hello', options: { hooks } }), stream);
      expect(outcome.error).toBeUndefined();
      expect(seen).toEqual([
        {
          systemInstructions: 'Be brief.',
          input: [{ type: 'message', role: 'user', content: 'hello' }],
        },
        [msg('hi there')],
      ]);
      const bare = await runMode(() => ({ agent, input: 'again', options: { hooks: {} } }), stream);
      expect(bare.error).toBeUndefined();
    });

    it(`the generation span keeps the settings, input and output as they were; a failed call fails it (${mode})`, async () => {
      const rec = new RecordingTraceProcessor();
      setTraceProcessors([rec]);
      const settings = { temperature: 0.2 };
      const agent = new Agent({
        name: 'A',
        model: new ScriptedModel([
          [msg('first')],
          { error: new ModelCallError('down', { retryable: false }) },
        ]),
        modelSettings: settings,
      });
      const tracing = { includeSensitiveData: true };
      const ok = await runMode(() => ({ agent, input: 'q', options: { tracing } }), stream);
      expect(ok.error).toBeUndefined();
      settings.temperature = 0.9;
      const gen = rec.ended.find((s) => s.data.kind === 'generation')!.data as GenerationSpanData;
      expect(gen.modelSettings).toEqual({ temperature: 0.2 });
      expect(gen.input).toEqual([{ type: 'message', role: 'user', content: 'q' }]);
      expect(gen.output).toEqual([msg('first')]);

      const failed = await runMode(() => ({ agent, input: 'q2', options: { tracing } }), stream);
      expect(failed.error).toBeInstanceOf(ModelCallError);
      const failedGen = rec.ended.filter((s) => s.data.kind === 'generation').at(-1)!;
      expect(failedGen.error?.message).toMatch(/^down/);
    });
  }
});

describe('runStep with a durability wrap that streams', () => {
  it('hands the turn its item events but no model deltas (non-streaming mode)', async () => {
    const kinds: string[] = [];
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[msg('streamed text')]]) });
    const deltas: string[] = [];
    const outcome = await runStep(
      agent,
      'x',
      {
        durability: {
          wrapModelCall: (_key, _request, call) =>
            call({ onEvent: (e) => void (e.type === 'text_delta' && deltas.push(e.delta)) }),
        },
      },
      { onEvent: (e) => void kinds.push(e.type) },
    );
    expect(outcome.nextStep).toBe('final_output');
    expect(deltas.join('')).toBe('streamed text');
    expect(kinds).not.toContain('raw_model_stream_event');
    expect(kinds).toContain('run_item_stream_event');
  });
});
