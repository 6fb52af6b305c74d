import {
  type FunctionCallItem,
  type MessageItem,
  ModelBehaviorError,
  ModelCallError,
  type ReasoningItem,
} from '@baton/kernel';
import { chunksToSse, type FixtureServer, startFixtureServer } from '@baton/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  collect,
  collectUntilError,
  fixtureText,
  ofType,
  sseFixture,
  testModel,
  userRequest,
  weatherTool,
} from './__fixtures__/fixtures.js';

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  await server.close();
});

function lines(name: string): string[] {
  return fixtureText(name)
    .split('\n')
    .filter((l) => l.trim() !== '');
}

describe('OpenAIResponsesModel.getStreamedResponse', () => {
  it('streams text deltas that add up to the final text, ending with exactly one response_done', async () => {
    server.enqueue(sseFixture('text.chunks.txt'));
    const events = await collect(testModel(server).getStreamedResponse(userRequest('Weather?')));
    const text = ofType(events, 'text_delta').map((e) => e.delta);
    expect(text).toHaveLength(11);
    expect(text.join('')).toBe('It is sunny and 22 °C in Paris right now.');
    expect(ofType(events, 'response_done')).toHaveLength(1);
    const done = events[events.length - 1];
    expect(done.type).toBe('response_done');
    const response = (done as Extract<typeof done, { type: 'response_done' }>).response;
    expect((response.output[0] as MessageItem).content).toEqual([
      {
        type: 'output_text',
        annotations: [],
        logprobs: [],
        text: 'It is sunny and 22 °C in Paris right now.',
      },
    ]);
    expect(response.usage).toMatchObject({
      inputTokens: 36,
      outputTokens: 14,
      cachedInputTokens: 12,
      requests: 1,
    });
    expect(events[1]).toEqual({
      type: 'response_started',
      responseId: 'resp_134a5b1e0c7f2a3b00691a0c90a1b2c3d4e5f6a7b8c9d0e1f2',
    });
    expect(server.requests[0].body.stream).toBe(true);
  });

  it('passes every wire event through as a raw event, in wire order, before its mapped event', async () => {
    server.enqueue(sseFixture('text.chunks.txt'));
    const events = await collect(testModel(server).getStreamedResponse(userRequest('Weather?')));
    const raw = ofType(events, 'raw');
    expect(raw.every((e) => e.providerId === 'openai')).toBe(true);
    expect(raw.map((e) => (e.event as { type: string }).type)).toEqual(
      lines('text.chunks.txt').map((l) => JSON.parse(l).type),
    );
    const firstDelta = events.findIndex((e) => e.type === 'text_delta');
    expect(events[firstDelta - 1]).toMatchObject({
      type: 'raw',
      event: { type: 'response.output_text.delta', delta: 'It' },
    });
  });

  it('gives the same text when the SSE arrives in slices that split the UTF-8 bytes of °', async () => {
    const body = Buffer.from(chunksToSse(fixtureText('text.chunks.txt'), 'responses'));
    const splitAt = body.indexOf(Buffer.from('°')) + 1;
    server.enqueue({ kind: 'sse', body: body.toString('utf8'), chunkBytes: splitAt });
    const events = await collect(testModel(server).getStreamedResponse(userRequest('Weather?')));
    expect(
      ofType(events, 'text_delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe('It is sunny and 22 °C in Paris right now.');
  });

  it('streams function call argument deltas tagged with the call_id', async () => {
    server.enqueue(sseFixture('tool-call.chunks.txt'));
    const events = await collect(
      testModel(server).getStreamedResponse(userRequest('Weather?', { tools: [weatherTool] })),
    );
    const deltas = ofType(events, 'function_call_arguments_delta');
    expect(deltas.map((d) => d.delta).join('')).toBe('{"city":"Paris"}');
    expect(new Set(deltas.map((d) => d.callId))).toEqual(
      new Set(['call_Zx9yW8vU7tS6rQ5pO4nM3lK2']),
    );
    expect(ofType(events, 'output_item_added')[0].item).toMatchObject({
      type: 'function_call',
      arguments: '',
      status: 'in_progress',
    });
    const done = ofType(events, 'response_done')[0].response;
    expect(done.output).toEqual([
      {
        id: 'fc_145b6c2f1d8a3b4c00691a0ca1b2c3d4e5f6a7b8c9d0e1f2a3',
        type: 'function_call',
        status: 'completed',
        arguments: '{"city":"Paris"}',
        call_id: 'call_Zx9yW8vU7tS6rQ5pO4nM3lK2',
        name: 'get_weather',
      },
    ]);
  });

  it('streams two parallel calls with deltas tagged by call_id and output index', async () => {
    server.enqueue(sseFixture('parallel-tool-calls.chunks.txt'));
    const events = await collect(
      testModel(server).getStreamedResponse(
        userRequest('Paris and Tokyo?', { tools: [weatherTool] }),
      ),
    );
    const byCall = new Map<string | undefined, string>();
    for (const d of ofType(events, 'function_call_arguments_delta'))
      byCall.set(d.callId, (byCall.get(d.callId) ?? '') + d.delta);
    expect(Object.fromEntries(byCall)).toEqual({
      call_Pa1Pa2Pa3Pa4Pa5Pa6Pa7Pa8: '{"city":"Paris"}',
      call_To1To2To3To4To5To6To7To8: '{"city":"Tokyo"}',
    });
    expect(ofType(events, 'output_item_done').map((e) => e.outputIndex)).toEqual([0, 1]);
    const calls = ofType(events, 'response_done')[0].response.output as FunctionCallItem[];
    expect(calls.map((c) => c.call_id)).toEqual([
      'call_Pa1Pa2Pa3Pa4Pa5Pa6Pa7Pa8',
      'call_To1To2To3To4To5To6To7To8',
    ]);
  });

  it('streams reasoning summary deltas and returns the reasoning item with encrypted_content', async () => {
    server.enqueue(sseFixture('reasoning.chunks.txt'));
    const events = await collect(
      testModel(server, 'gpt-5-mini').getStreamedResponse(
        userRequest('Weather?', { modelSettings: { store: false } }),
      ),
    );
    expect(
      ofType(events, 'reasoning_delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe('**Checking the forecast**\n\nThe tool said sunny, 22 °C.');
    const response = ofType(events, 'response_done')[0].response;
    const reasoning = response.output[0] as ReasoningItem;
    expect(reasoning.encrypted_content).toMatch(/^gAAAAAB/);
    expect(reasoning.summary).toEqual([
      { type: 'summary_text', text: '**Checking the forecast**\n\nThe tool said sunny, 22 °C.' },
    ]);
    expect(
      ofType(events, 'text_delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe('Paris: sunny, 22 °C.');
    expect(response.usage.reasoningTokens).toBe(192);
    expect(server.requests[0].body.include).toEqual(['reasoning.encrypted_content']);
  });

  it('streams a refusal: no text deltas, the final message holds the refusal part', async () => {
    server.enqueue(sseFixture('refusal.chunks.txt'));
    const events = await collect(
      testModel(server).getStreamedResponse(userRequest('Something bad')),
    );
    expect(ofType(events, 'text_delta')).toHaveLength(0);
    const refusalDeltas = ofType(events, 'raw').filter(
      (e) => (e.event as { type: string }).type === 'response.refusal.delta',
    );
    expect(refusalDeltas).toHaveLength(3);
    const message = ofType(events, 'response_done')[0].response.output[0] as MessageItem;
    expect(message.content).toEqual([
      { type: 'refusal', refusal: "I'm sorry, but I can't help with that." },
    ]);
  });

  it('turns response.failed (server_error, before any output) into a retryable ModelCallError with the server message', async () => {
    server.enqueue(sseFixture('failed.chunks.txt'));
    const { events, error } = await collectUntilError(
      testModel(server).getStreamedResponse(userRequest('x')),
    );
    expect(ModelCallError.isInstance(error)).toBe(true);
    const e = error as ModelCallError;
    expect(e).toMatchObject({ code: 'server_error', retryable: true, statusCode: undefined });
    expect(e.message).toContain('The server had an error processing your request');
    expect(ofType(events, 'response_done')).toHaveLength(0);
  });

  it('turns response.incomplete without usable output into ModelBehaviorError', async () => {
    server.enqueue(sseFixture('incomplete.chunks.txt'));
    const { error } = await collectUntilError(
      testModel(server, 'gpt-5-mini').getStreamedResponse(userRequest('x')),
    );
    expect(error).toBeInstanceOf(ModelBehaviorError);
    expect((error as Error).message).toContain('reason: max_output_tokens');
  });
});

describe('a stream that breaks', () => {
  it('cut midway after output: a ModelCallError that is not retryable', async () => {
    const body = chunksToSse(fixtureText('text.chunks.txt'), 'responses');
    const cut = body.indexOf('" sunny"');
    server.enqueue({ kind: 'sse', body, cutAfterBytes: Buffer.byteLength(body.slice(0, cut)) });
    const { events, error } = await collectUntilError(
      testModel(server).getStreamedResponse(userRequest('x')),
    );
    expect(ofType(events, 'text_delta').map((e) => e.delta)).toEqual(['It', ' is']);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: false, code: 'connection_error' });
    expect((error as Error).message).toContain('not replayed');
    expect(ofType(events, 'response_done')).toHaveLength(0);
  });

  it('cut before any output (after response.created): a retryable ModelCallError', async () => {
    const body = chunksToSse(fixtureText('text.chunks.txt'), 'responses');
    const cut = body.indexOf('event: response.in_progress') + 30;
    server.enqueue({ kind: 'sse', body, cutAfterBytes: cut });
    const { events, error } = await collectUntilError(
      testModel(server).getStreamedResponse(userRequest('x')),
    );
    expect(events.map((e) => e.type)).toEqual(['raw', 'response_started']);
    expect(error).toMatchObject({ retryable: true, code: 'connection_error' });
  });

  it('ending cleanly without a terminal event: a ModelCallError (stream_incomplete)', async () => {
    const withoutCompleted = lines('tool-call.chunks.txt').slice(0, -1).join('\n');
    server.enqueue({ kind: 'sse', body: chunksToSse(withoutCompleted, 'responses') });
    const { events, error } = await collectUntilError(
      testModel(server).getStreamedResponse(userRequest('x')),
    );
    expect(ofType(events, 'output_item_done')).toHaveLength(1);
    expect(error).toMatchObject({ retryable: false, code: 'stream_incomplete' });
  });

  it('aborted through the signal: rethrows the abort reason, not a ModelCallError', async () => {
    server.enqueue(sseFixture('text.chunks.txt', { chunkBytes: 64 }));
    const controller = new AbortController();
    const reason = new Error('user cancelled');
    const stream = testModel(server).getStreamedResponse(
      userRequest('x', { signal: controller.signal }),
    );
    const seen: string[] = [];
    let error: unknown;
    try {
      for await (const event of stream) {
        seen.push(event.type);
        if (event.type === 'output_item_added') controller.abort(reason);
        if (seen.length > 1000) break;
      }
    } catch (e) {
      error = e;
    }
    expect(error).toBe(reason);
    expect(seen).not.toContain('response_done');
  });
});
