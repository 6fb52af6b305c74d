/**
 * Responses streams as proxies send them (`__fixtures__/quirk-streams.ts`, docs/provider-quirks.md):
 * item ids that change on every event, a `response.completed` without output or without
 * `output_item.done` events, and metadata that arrives late. Served to the unmodified `openai`
 * client from 127.0.0.1; checked on the stream events and through a whole `run()`.
 */
import {
  Agent,
  createProviderRegistry,
  type FunctionCallItem,
  type ModelStreamEvent,
  run,
  tool,
} from '@baton/kernel';
import { type FixtureServer, sseFromEvents, startFixtureServer } from '@baton/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collect, ofType, testModel, userRequest, weatherTool } from './__fixtures__/fixtures.js';
import { lateMetadataStream, rotatingIdStream } from './__fixtures__/quirk-streams.js';
import { createOpenAIProvider } from './openai-provider.js';

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  await server.close();
});

const done = (events: ModelStreamEvent[]) => ofType(events, 'response_done')[0].response;
const byIndex = (events: { delta: string; outputIndex?: number }[]) => {
  const out = new Map<number | undefined, string>();
  for (const e of events) out.set(e.outputIndex, (out.get(e.outputIndex) ?? '') + e.delta);
  return out;
};

describe('proxies that rotate item ids (GitHub Copilot, LiteLLM bridge)', () => {
  for (const variant of [
    { name: 'completed output under other ids', options: {} },
    { name: 'response.completed with empty output', options: { completedOutput: false } },
    {
      name: 'no output_item.done events and empty completed output',
      options: { completedOutput: false, doneItems: false },
    },
  ]) {
    it(`correlates by output_index: ${variant.name}`, async () => {
      server.enqueue({
        kind: 'sse',
        body: sseFromEvents(rotatingIdStream(variant.options), 'responses'),
        chunkBytes: 97,
      });
      const events = await collect(
        testModel(server).getStreamedResponse(userRequest('Weather?', { tools: [weatherTool] })),
      );
      const response = done(events);
      expect(response.output.map((i) => i.type)).toEqual(['reasoning', 'message', 'function_call']);
      const call = response.output[2] as FunctionCallItem;
      expect(call).toMatchObject({
        call_id: 'call_rot_paris',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        status: 'completed',
      });
      expect(response.output[1]).toMatchObject({
        content: [{ type: 'output_text', text: 'Checking Paris.' }],
      });
      expect(response.output[0]).toMatchObject({
        summary: [
          { type: 'summary_text', text: 'Weather needs a tool.' },
          { type: 'summary_text', text: ' Paris it is.' },
        ],
      });
      // Argument deltas carry the call id of the item added at their output index.
      const args = ofType(events, 'function_call_arguments_delta');
      expect(args.map((e) => e.callId)).toEqual(['call_rot_paris', 'call_rot_paris']);
      expect(byIndex(args).get(2)).toBe(call.arguments);
      // Deltas of one item share one item id: the id of its output_item.added item.
      const addedIds = ofType(events, 'output_item_added').map(
        (e) => (e.item as { id?: string }).id,
      );
      for (const kind of [
        'text_delta',
        'reasoning_delta',
        'function_call_arguments_delta',
      ] as const) {
        for (const e of ofType(events, kind)) expect(e.itemId).toBe(addedIds[e.outputIndex!]);
      }
      expect(byIndex(ofType(events, 'text_delta')).get(1)).toBe('Checking Paris.');
      expect(byIndex(ofType(events, 'reasoning_delta')).get(0)).toBe(
        'Weather needs a tool. Paris it is.',
      );
      expect(response.responseId).toBe('resp_rotating_1');
    });
  }

  for (const stream of [false, true] as const) {
    it(`a whole run() with the tool (stream: ${stream}): the tool gets its arguments and its output goes back under the call id`, async () => {
      const cities: string[] = [];
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
              return `${city}: 18C`;
            },
          }),
        ],
      });
      const events = rotatingIdStream({ completedOutput: false });
      const completed = (events.at(-1) as { response: Record<string, unknown> }).response;
      const answer = {
        id: 'resp_answer',
        object: 'response',
        status: 'completed',
        model: 'gpt-5.1',
        output: [
          {
            id: 'msg_ans',
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: 'It is 18C.', annotations: [] }],
          },
        ],
        usage: null,
      };
      if (stream) {
        server.enqueue(
          { kind: 'sse', body: sseFromEvents(events, 'responses') },
          {
            kind: 'sse',
            body: sseFromEvents(
              [
                {
                  type: 'response.created',
                  response: { ...answer, status: 'in_progress', output: [] },
                },
                { type: 'response.completed', response: answer },
              ],
              'responses',
            ),
          },
        );
      } else {
        // The non-streamed body of the same proxy: items under rotated ids.
        const output = rotatingIdStream().at(-1) as { response: { output: unknown[] } };
        server.enqueue(
          { kind: 'json', body: { ...completed, output: output.response.output } },
          { kind: 'json', body: answer },
        );
      }
      const registry = createProviderRegistry({
        openai: createOpenAIProvider({ baseURL: `${server.url}/v1`, apiKey: 'k' }),
      });
      const options = { modelProvider: registry, model: 'openai:gpt-5.1' };
      let result: { finalOutput: unknown };
      if (stream) {
        const s = await run(agent, 'Weather?', { ...options, stream: true });
        const callIds: (string | undefined)[] = [];
        for await (const e of s)
          if (
            e.type === 'raw_model_stream_event' &&
            e.data.type === 'function_call_arguments_delta'
          )
            callIds.push(e.data.callId);
        await s.completed;
        expect(callIds).toEqual(['call_rot_paris', 'call_rot_paris']);
        result = s;
      } else {
        result = await run(agent, 'Weather?', options);
      }
      expect(result.finalOutput).toBe('It is 18C.');
      expect(cities).toEqual(['Paris']);
      const input = server.requests[1].body.input as Record<string, unknown>[];
      expect(input.find((i) => i.type === 'function_call_output')).toMatchObject({
        call_id: 'call_rot_paris',
        output: 'Paris: 18C',
      });
      expect(input.find((i) => i.type === 'function_call')).toMatchObject({
        call_id: 'call_rot_paris',
        arguments: '{"city":"Paris"}',
      });
    });
  }
});

describe('late metadata (a router sends id "" and model "" first)', () => {
  it('response_started and response_done carry the first non-empty id and model', async () => {
    server.enqueue({ kind: 'sse', body: sseFromEvents(lateMetadataStream(), 'responses') });
    const events = await collect(testModel(server).getStreamedResponse(userRequest('Hi')));
    const visible = events.filter((e) => e.type !== 'raw');
    expect(visible[0]).toEqual({ type: 'response_started', responseId: 'resp_late_1' });
    expect(ofType(events, 'response_started')).toHaveLength(1);
    expect(done(events)).toMatchObject({ responseId: 'resp_late_1', modelName: 'gpt-5.1' });
  });

  it('a non-streamed body with empty id and model reports them as absent', async () => {
    server.enqueue({
      kind: 'json',
      body: {
        id: '',
        object: 'response',
        status: 'completed',
        model: '',
        output: [
          {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: 'Hi', annotations: [] }],
          },
        ],
      },
    });
    const response = await testModel(server).getResponse(userRequest('Hi'));
    expect(response.responseId).toBeUndefined();
    expect(response.modelName).toBeUndefined();
  });
});
