import { msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { ModelCallError } from '../errors/errors.js';
import type { Model, ModelRequest, ModelResponse, ModelStreamEvent } from '../model/model.js';
import type { RunOptions } from './run-options.js';

const fast = { retry: { maxRetries: 2, backoff: { initialDelayMs: 1, maxDelayMs: 1 } } };

/**
 * A model whose first `stalls` calls never answer and ignore the abort signal (a hung
 * connection), then answers `text`. `stallAfterStart`: the stream stalls after `response_started`.
 */
function stallingModel(stalls: number, text = 'finally', responseId?: string) {
  const requests: ModelRequest[] = [];
  const never = new Promise<never>(() => {});
  const answer = (): ModelResponse => ({ output: [msg(text)], usage: {}, responseId });
  const model: Model = {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: 'stalling',
    async getResponse(request) {
      requests.push(request);
      if (requests.length <= stalls) return never;
      return answer();
    },
    async *getStreamedResponse(request): AsyncIterable<ModelStreamEvent> {
      requests.push(request);
      yield {
        type: 'response_started',
        responseId: requests.length <= stalls ? undefined : responseId,
      };
      if (requests.length <= stalls) await never;
      yield { type: 'response_done', response: answer() };
    },
  };
  return { model, requests };
}

describe('per-call model timeouts', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`modelSettings.timeoutMs ends a stalled call with a retryable ModelCallError; the retry succeeds (${mode})`, async () => {
      const { model, requests } = stallingModel(1);
      const agent = new Agent({ name: 'A', model, modelSettings: { timeoutMs: 30 } });
      const { result, error } = await runMode(() => ({ agent, input: 'x', options: fast }), stream);
      expect(error).toBeUndefined();
      expect(result!.finalOutput).toBe('finally');
      expect(requests).toHaveLength(2);
      expect(requests[0].signal?.aborted).toBe(true);
      expect(result!.usage.requests).toBe(1);
    });

    it(`a call that keeps stalling fails after the retries, naming the attempts and the advice (${mode})`, async () => {
      const { model, requests } = stallingModel(10);
      const agent = new Agent({ name: 'A', model });
      const options: RunOptions = { ...fast, modelSettings: { timeoutMs: 20 } };
      const { error } = await runMode(() => ({ agent, input: 'x', options }), stream);
      expect(ModelCallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'timeout', retryable: true });
      expect((error as Error).message).toMatch(
        /did not answer within 20 ms \(modelSettings\.timeoutMs\).*Gave up after 3 attempts \(retry\.maxRetries 2\)/,
      );
      expect(requests).toHaveLength(3);
    });
  }

  it('modelSettings.streamIdleTimeoutMs ends a stream that stops sending events; the retry succeeds', async () => {
    const { model, requests } = stallingModel(1);
    const agent = new Agent({ name: 'A', model, modelSettings: { streamIdleTimeoutMs: 30 } });
    const { result, error } = await runMode(() => ({ agent, input: 'x', options: fast }), true);
    expect(error).toBeUndefined();
    expect(result!.finalOutput).toBe('finally');
    expect(requests).toHaveLength(2);
  });

  it('an idle stream that already streamed output is not replayed', async () => {
    let calls = 0;
    const { model } = stallingModel(0);
    const partial: Model = {
      ...model,
      async *getStreamedResponse() {
        calls++;
        yield { type: 'text_delta', delta: 'partial' };
        await new Promise(() => {});
      },
    };
    const agent = new Agent({
      name: 'A',
      model: partial,
      modelSettings: { streamIdleTimeoutMs: 20 },
    });
    const { error } = await runMode(() => ({ agent, input: 'x', options: fast }), true);
    expect(error).toMatchObject({ code: 'stream_idle_timeout' });
    expect(calls).toBe(1);
  });
});

describe('retries are replay-safe for stateful requests', () => {
  const flaky = (error: ModelCallError) =>
    new ScriptedModel([{ error }, { output: [msg('ok')], responseId: 'resp_2' }]);

  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`a failure the server may have taken is not retried with previousResponseId or conversationId (${mode})`, async () => {
      for (const options of [{ previousResponseId: 'resp_0' }, { conversationId: 'conv_1' }]) {
        const model = flaky(
          new ModelCallError('socket hang up', { retryable: true, replaySafe: false }),
        );
        const agent = new Agent({ name: 'A', model });
        const { error } = await runMode(
          () => ({ agent, input: 'x', options: { ...fast, ...options } }),
          stream,
        );
        expect(model.requests).toHaveLength(1);
        expect((error as Error).message).toMatch(
          /socket hang up \[Not retried \(attempt 1 of 3\): the request chains to server state/,
        );
      }
    });

    it(`the same failure without server state, and a 429 with it, are retried (${mode})`, async () => {
      const unsafe = flaky(
        new ModelCallError('socket hang up', { retryable: true, replaySafe: false }),
      );
      const a = await runMode(
        () => ({ agent: new Agent({ name: 'A', model: unsafe }), input: 'x', options: fast }),
        stream,
      );
      expect(a.result!.finalOutput).toBe('ok');
      const limited = flaky(
        new ModelCallError('rate limited', { retryable: true, statusCode: 429 }),
      );
      const b = await runMode(
        () => ({
          agent: new Agent({ name: 'A', model: limited }),
          input: 'x',
          options: { ...fast, previousResponseId: 'resp_0' },
        }),
        stream,
      );
      expect(b.result!.finalOutput).toBe('ok');
      expect(limited.requests.map((r) => r.previousResponseId)).toEqual(['resp_0', 'resp_0']);
    });
  }

  it('a stream that failed after the server gave a response id is not replayed for a stateful request', async () => {
    const { model, requests } = stallingModel(0, 'never', 'resp_x');
    let calls = 0;
    const broken: Model = {
      ...model,
      async *getStreamedResponse(request) {
        calls++;
        requests.push(request);
        yield { type: 'response_started', responseId: `resp_${calls}` };
        throw new ModelCallError('stream reset', { retryable: true });
      },
    };
    const agent = new Agent({ name: 'A', model: broken });
    const { error } = await runMode(
      () => ({ agent, input: 'x', options: { ...fast, previousResponseId: 'resp_0' } }),
      true,
    );
    expect(calls).toBe(1);
    expect((error as Error).message).toMatch(/stream reset \[Not retried/);
  });

  it('a non-retryable error names its single attempt and the advice', async () => {
    const model = new ScriptedModel([
      { error: new ModelCallError('bad request', { statusCode: 400 }) },
    ]);
    const agent = new Agent({ name: 'A', model });
    const { error } = await runMode(() => ({ agent, input: 'x', options: fast }), false);
    expect((error as Error).message).toBe(
      'bad request [Not retried (attempt 1 of 3): the retry advice says this error is not retryable.]',
    );
  });
});
