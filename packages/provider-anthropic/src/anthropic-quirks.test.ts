/**
 * Anthropic streams as real servers send them (docs/provider-quirks.md): `message_start` that
 * already holds the answer (programmatic tool calling, several such streams in one turn), a
 * `tool_use` with its whole input at `content_block_start`, a repeated `message_start`, and the
 * `caller` / `container` a follow-up request needs. Served to the unmodified `@anthropic-ai/sdk`
 * client from 127.0.0.1; checked on the stream events and through a whole `run()`.
 */
import { Agent, type FunctionCallItem, type ModelStreamEvent, run, tool } from '@baton/kernel';
import { sseFromEvents } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  collect,
  expectConsistentEvents,
  request,
  useHarness,
  weatherTool,
} from './__fixtures__/harness.js';
import {
  CITIES,
  CODE_EXECUTION_TOOL,
  CONTAINER,
  PTC_MESSAGES,
  PTC_STREAMS,
  SERVER_TOOL_ID,
} from './__fixtures__/programmatic-tool-calling.js';

const h = useHarness();
const ofType = <T extends ModelStreamEvent['type']>(events: ModelStreamEvent[], type: T) =>
  events.filter((e): e is Extract<ModelStreamEvent, { type: T }> => e.type === type);

describe('message_start that already holds the answer (programmatic tool calling)', () => {
  it('stream events: response_started, the tool call (added, one arguments delta, done) and response_done', async () => {
    h.server.enqueue({ kind: 'sse', body: sseFromEvents(PTC_STREAMS[1], 'anthropic') });
    const events = await collect(
      h.model().getStreamedResponse(request('go', { tools: [weatherTool, CODE_EXECUTION_TOOL] })),
    );
    const response = (events.at(-1) as Extract<ModelStreamEvent, { type: 'response_done' }>)
      .response;
    expectConsistentEvents(events, response.output);
    expect(events.find((e) => e.type !== 'raw')).toEqual({
      type: 'response_started',
      responseId: 'msg_01BatonPtc1',
    });
    expect(response.output).toEqual([
      {
        type: 'function_call',
        call_id: 'toolu_01BatonPtc1',
        name: 'get_weather',
        arguments: '{"city":"Rome"}',
        status: 'completed',
        provider_data: {
          anthropic: {
            caller: { type: 'code_execution_20250825', tool_id: SERVER_TOOL_ID },
            container: CONTAINER,
          },
        },
      },
    ]);
    expect(ofType(events, 'function_call_arguments_delta').map((e) => [e.delta, e.callId])).toEqual(
      [['{"city":"Rome"}', 'toolu_01BatonPtc1']],
    );
    expect(response.responseId).toBe('msg_01BatonPtc1');
    expect(response.modelName).toBe('claude-sonnet-4-5-20250929');
  });

  for (const stream of [false, true] as const) {
    it(`a whole run() (stream: ${stream}): three tool calls in three responses, caller and container sent back each time`, async () => {
      const cities: string[] = [];
      const agent = new Agent({
        name: 'PTC',
        instructions: 'Use code to call the tool.',
        tools: [
          CODE_EXECUTION_TOOL,
          tool({
            name: 'get_weather',
            description: 'w',
            parameters: z.object({ city: z.string() }),
            execute: ({ city }) => {
              cities.push(city);
              return `${city}: sunny`;
            },
          }),
        ],
      });
      for (const [i, message] of PTC_MESSAGES.entries())
        h.server.enqueue(
          stream
            ? { kind: 'sse', body: sseFromEvents(PTC_STREAMS[i], 'anthropic'), chunkBytes: 83 }
            : { kind: 'json', body: message },
        );
      const model = h.model();
      let finalOutput: unknown;
      if (stream) {
        const s = await run(agent, 'Weather in Paris, Rome and Oslo?', { model, stream: true });
        const started: unknown[] = [];
        for await (const e of s)
          if (e.type === 'raw_model_stream_event' && e.data.type === 'response_started')
            started.push(e.data.responseId);
        await s.completed;
        expect(started).toEqual(PTC_MESSAGES.map((m) => m.id));
        finalOutput = s.finalOutput;
      } else {
        finalOutput = (await run(agent, 'Weather in Paris, Rome and Oslo?', { model })).finalOutput;
      }
      expect(finalOutput).toBe('Sunny in all three cities.');
      expect(cities).toEqual(CITIES);
      expect(h.server.requests).toHaveLength(4);
      expect(h.server.requests[0].body.container).toBeUndefined();
      for (const n of [1, 2, 3]) {
        const body = h.server.requests[n].body;
        expect(body.container).toBe(CONTAINER.id);
        const assistant = body.messages
          .filter((m: any) => m.role === 'assistant')
          .flatMap((m: any) => m.content);
        expect(assistant.find((b: any) => b.type === 'server_tool_use')).toMatchObject({
          id: SERVER_TOOL_ID,
          caller: { type: 'direct' },
        });
        const uses = assistant.filter((b: any) => b.type === 'tool_use');
        expect(uses.map((b: any) => [b.input.city, b.caller])).toEqual(
          CITIES.slice(0, n).map((c) => [
            c,
            { type: 'code_execution_20250825', tool_id: SERVER_TOOL_ID },
          ]),
        );
        const last = body.messages.at(-1);
        expect(last.role).toBe('user');
        expect(last.content).toEqual([
          {
            type: 'tool_result',
            tool_use_id: `toolu_01BatonPtc${n - 1}`,
            content: `${CITIES[n - 1]}: sunny`,
          },
        ]);
      }
    });
  }

  it('does not send an expired container, nor a caller whose server tool call is not in the input', async () => {
    const expired = { id: 'container_old', expires_at: '2001-01-01T00:00:00Z' };
    const call: FunctionCallItem = {
      type: 'function_call',
      call_id: 'toolu_orphan',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
      provider_data: {
        anthropic: {
          caller: { type: 'code_execution_20250825', tool_id: 'srvtoolu_gone' },
          container: expired,
        },
      },
    };
    h.server.enqueue({ kind: 'json', body: PTC_MESSAGES[3] });
    await h
      .model()
      .getResponse(
        request(
          [
            { type: 'message', role: 'user', content: 'go' },
            call,
            { type: 'function_call_output', call_id: 'toolu_orphan', output: 'sunny' },
          ],
          { tools: [CODE_EXECUTION_TOOL] },
        ),
      );
    const body = h.server.requests[0].body;
    expect(body.container).toBeUndefined();
    expect(body.messages[1].content).toEqual([
      { type: 'tool_use', id: 'toolu_orphan', name: 'get_weather', input: { city: 'Paris' } },
    ]);
  });
});

describe('tool_use with its whole input at content_block_start', () => {
  const body = (deltas: string[]) =>
    sseFromEvents(
      [
        {
          type: 'message_start',
          message: {
            id: 'msg_whole',
            type: 'message',
            role: 'assistant',
            model: 'claude-x',
            content: [],
            stop_reason: null,
            usage: { input_tokens: 10, output_tokens: 1 },
          },
        },
        {
          type: 'content_block_start',
          index: 0,
          content_block: {
            type: 'tool_use',
            id: 'toolu_whole',
            name: 'get_weather',
            input: { city: 'Paris' },
          },
        },
        ...deltas.map((partial_json) => ({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json },
        })),
        { type: 'content_block_stop', index: 0 },
        {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { output_tokens: 9 },
        },
        { type: 'message_stop' },
      ],
      'anthropic',
    );

  it('keeps that input (no deltas follow), streamed as one arguments delta', async () => {
    h.server.enqueue({ kind: 'sse', body: body([]) });
    const events = await collect(
      h.model().getStreamedResponse(request('go', { tools: [weatherTool] })),
    );
    const response = (events.at(-1) as Extract<ModelStreamEvent, { type: 'response_done' }>)
      .response;
    expectConsistentEvents(events, response.output);
    expect(response.output).toEqual([
      {
        type: 'function_call',
        call_id: 'toolu_whole',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        status: 'completed',
      },
    ]);
    expect(
      ofType(events, 'function_call_arguments_delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe('{"city":"Paris"}');
  });

  it('lets deltas build the input when they come (an empty first delta changes nothing)', async () => {
    h.server.enqueue({ kind: 'sse', body: body(['', '{"city":', '"Rome"}']) });
    const events = await collect(
      h.model().getStreamedResponse(request('go', { tools: [weatherTool] })),
    );
    const response = (events.at(-1) as Extract<ModelStreamEvent, { type: 'response_done' }>)
      .response;
    expect((response.output[0] as FunctionCallItem).arguments).toBe('{"city":"Rome"}');
    expect(
      ofType(events, 'function_call_arguments_delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe('{"city":"Rome"}');
  });

  it('runs the tool with that input in a whole run()', async () => {
    const cities: string[] = [];
    h.server.enqueue(
      { kind: 'sse', body: body([]) },
      { kind: 'sse', body: sseFromEvents(PTC_STREAMS[3], 'anthropic') },
    );
    const agent = new Agent({
      name: 'W',
      instructions: 'Use the tool.',
      tools: [
        tool({
          name: 'get_weather',
          description: 'w',
          parameters: z.object({ city: z.string() }),
          execute: ({ city }) => {
            cities.push(city);
            return 'sunny';
          },
        }),
      ],
    });
    const s = await run(agent, 'Weather?', { model: h.model(), stream: true });
    for await (const _ of s) {
      // drain
    }
    await s.completed;
    expect(cities).toEqual(['Paris']);
    expect(h.server.requests[1].body.messages[1].content).toEqual([
      { type: 'tool_use', id: 'toolu_whole', name: 'get_weather', input: { city: 'Paris' } },
    ]);
  });
});

describe('a repeated message_start (proxies)', () => {
  it('starts the response once and keeps the content', async () => {
    const start = {
      type: 'message_start',
      message: {
        id: 'msg_dup',
        type: 'message',
        role: 'assistant',
        model: 'claude-x',
        content: [],
        stop_reason: null,
        usage: { input_tokens: 17, output_tokens: 1 },
      },
    };
    h.server.enqueue({
      kind: 'sse',
      body: sseFromEvents(
        [
          start,
          start,
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello.' } },
          { type: 'content_block_stop', index: 0 },
          {
            type: 'message_delta',
            delta: { stop_reason: 'end_turn', stop_sequence: null },
            usage: { output_tokens: 3 },
          },
          { type: 'message_stop' },
        ],
        'anthropic',
      ),
    });
    const events = await collect(h.model().getStreamedResponse(request('hi')));
    expect(ofType(events, 'response_started')).toHaveLength(1);
    const response = (events.at(-1) as Extract<ModelStreamEvent, { type: 'response_done' }>)
      .response;
    expect(response.output).toMatchObject([
      { type: 'message', content: [{ type: 'output_text', text: 'Hello.' }] },
    ]);
    expect(response.usage).toMatchObject({ inputTokens: 17, outputTokens: 3 });
  });
});
