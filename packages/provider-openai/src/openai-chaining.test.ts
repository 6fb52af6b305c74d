/**
 * Server-managed conversations on the Responses wire: the request bodies the real `openai`
 * client sends must form one chain (each `previous_response_id` is the latest response, and a
 * `function_call_output` answers a call of that response — else the live API rejects it), and
 * a stateful request is replayed only when the server surely did not take it.
 */
import { Agent, ModelCallError, type RunOptions, RunState, run, tool } from '@baton/kernel';
import {
  type FixtureResponse,
  type FixtureServer,
  sseFromEvents,
  startFixtureServer,
} from '@baton/testing';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonFixture } from './__fixtures__/fixtures.js';
import { OpenAIResponsesModel } from './openai-responses-model.js';

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  await server.close();
});

/** A recorded-shape response body with its own response id and, for a call, its own call id. */
function responseBody(id: string, call?: { callId: string; name: string; args: unknown }) {
  const fixture = (name: string) => (jsonFixture(name) as { body: Record<string, any> }).body;
  if (!call) return { ...fixture('text.json'), id };
  const body = structuredClone(fixture('function-call.json'));
  body.id = id;
  Object.assign(body.output[0], {
    call_id: call.callId,
    name: call.name,
    arguments: JSON.stringify(call.args),
  });
  return body;
}

/** The body as the fixture server serves it: JSON, or an SSE stream of the same response. */
function served(body: Record<string, any>, stream: boolean): FixtureResponse {
  if (!stream) return { kind: 'json', body };
  const events: unknown[] = [
    { type: 'response.created', response: { ...body, status: 'in_progress', output: [] } },
  ];
  body.output.forEach((item: unknown, output_index: number) => {
    events.push({ type: 'response.output_item.added', output_index, item });
    events.push({ type: 'response.output_item.done', output_index, item });
  });
  events.push({ type: 'response.completed', response: body });
  return { kind: 'sse', body: sseFromEvents(events, 'responses') };
}

function weatherAgent(ran: string[]) {
  const getWeather = tool({
    name: 'get_weather',
    description: 'Get the weather.',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => {
      ran.push(city);
      return `sunny in ${city}`;
    },
  });
  const confirm = tool({
    name: 'book_trip',
    description: 'Book a trip.',
    parameters: z.object({ city: z.string() }),
    needsApproval: true,
    execute: ({ city }) => `booked ${city}`,
  });
  const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 });
  return new Agent({
    name: 'Travel',
    tools: [getWeather, confirm],
    model: new OpenAIResponsesModel('gpt-x', { client }),
  });
}

/** Checks the chain of request bodies: every output answers a call of the response it chains to. */
function expectUnforkedChain(responses: Record<string, any>[]) {
  const byId = new Map(responses.map((r) => [r.id, r]));
  for (const request of server.requests.map((r) => r.body)) {
    const previous = byId.get(request.previous_response_id);
    const calls = new Set(
      (previous?.output ?? [])
        .filter((i: any) => i.type === 'function_call')
        .map((i: any) => i.call_id),
    );
    for (const item of request.input)
      if (item.type === 'function_call_output')
        expect(calls, `chained to ${request.previous_response_id}`).toContain(item.call_id);
  }
}

describe('chaining on the Responses wire', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`a run started with previousResponseId chains to the latest response across tool turns, a pause, JSON and the resume (${mode})`, async () => {
      const ran: string[] = [];
      const agent = weatherAgent(ran);
      const responses = [
        responseBody('resp_A', { callId: 'call_1', name: 'get_weather', args: { city: 'Paris' } }),
        responseBody('resp_B', { callId: 'call_2', name: 'book_trip', args: { city: 'Paris' } }),
        responseBody('resp_C'),
      ];
      server.enqueue(...responses.map((b) => served(b, stream)));
      const runIn = async (input: string | RunState, options: RunOptions) => {
        if (!stream) return run(agent, input, options);
        const result = await run(agent, input, { ...options, stream: true });
        for await (const _ of result);
        await result.completed;
        return result;
      };
      const first = await runIn('Plan a trip', { previousResponseId: 'resp_start' });
      expect(first.interruptions.map((i) => i.call_id)).toEqual(['call_2']);
      const state = await RunState.fromString(agent, first.state.toString());
      state.approve(state.getInterruptions()[0]);
      const second = await runIn(state, {});
      expect(second.finalOutput).toBe('It is sunny and 22 °C in Paris right now.');
      const bodies = server.requests.map((r) => r.body);
      expect(bodies.map((b) => b.previous_response_id)).toEqual(['resp_start', 'resp_A', 'resp_B']);
      expect(bodies.map((b) => b.input.map((i: any) => i.call_id ?? i.type))).toEqual([
        ['message'],
        ['call_1'],
        ['call_2'],
      ]);
      expectUnforkedChain(responses);
      expect(ran).toEqual(['Paris']);
    });
  }
});

describe('replay-safe retries on the wire', () => {
  const fast = { retry: { maxRetries: 2, backoff: { initialDelayMs: 1, maxDelayMs: 1 } } };

  it('a connection cut after the request was sent is not replayed for a chained request, but is without chaining', async () => {
    server.enqueue({ kind: 'reset' });
    const error = await run(weatherAgent([]), 'hi', {
      ...fast,
      previousResponseId: 'resp_0',
    }).catch((e) => e);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(
      /Not retried \(attempt 1 of 3\): the request chains to server state/,
    );
    expect(server.requests).toHaveLength(1);

    server.enqueue({ kind: 'reset' }, served(responseBody('resp_ok'), false));
    const result = await run(weatherAgent([]), 'hi', fast);
    expect(result.finalOutput).toMatch(/sunny/);
    expect(server.requests).toHaveLength(3);
  });

  it('an HTTP 5xx / 429 (no response id) is replayed even for a chained request', async () => {
    server.enqueue(
      {
        kind: 'json',
        status: 503,
        body: { error: { message: 'overloaded', type: 'server_error' } },
      },
      jsonFixture('error-429-rate-limit.json', 429, { 'retry-after-ms': '1' }),
      served(responseBody('resp_ok'), false),
    );
    const result = await run(weatherAgent([]), 'hi', { ...fast, previousResponseId: 'resp_0' });
    expect(result.finalOutput).toMatch(/sunny/);
    expect(server.requests.map((r) => r.body.previous_response_id)).toEqual([
      'resp_0',
      'resp_0',
      'resp_0',
    ]);
  });

  it('a refused connection is replayed for a chained request; giving up names the attempts', async () => {
    const closed = await startFixtureServer();
    const url = closed.url;
    await closed.close();
    const client = new OpenAI({ apiKey: 'test', baseURL: `${url}/v1`, maxRetries: 0 });
    const agent = new Agent({ name: 'A', model: new OpenAIResponsesModel('gpt-x', { client }) });
    const error = await run(agent, 'hi', { ...fast, previousResponseId: 'resp_0' }).catch((e) => e);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(/Gave up after 3 attempts \(retry\.maxRetries 2\)/);
  });
});
