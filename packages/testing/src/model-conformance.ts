/**
 * `describeModelConformance`: the vitest suite every `Model` v1 implementation runs against its
 * own wire fixtures, so a third-party provider can prove itself the same way as Baton's.
 * Provider-neutral: the fixtures are HTTP responses in the provider's wire format, served by the
 * wire-fixture server to the provider's unmodified vendor client.
 */
import {
  extractText,
  type FunctionCallItem,
  type Item,
  type MessageItem,
  type Model,
  ModelCallError,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
} from '@baton/kernel';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FixtureResponse, type FixtureServer, startFixtureServer } from './fixture-server.js';

/** A function call the fixture holds: its `call_id`, tool `name` and parsed `arguments` value. */
export interface ExpectedFunctionCall {
  callId: string;
  name: string;
  /** The arguments as a parsed JSON value (compared with `toEqual` after `JSON.parse`). */
  arguments: unknown;
}

/**
 * The six wire responses the suite replays, each a {@link FixtureResponse} in the provider's own
 * wire format (a JSON body for non-streamed calls, an SSE body for streamed ones), plus the
 * values the suite expects the model to report. Every fixture answers one request.
 *
 * - `text`: a non-streamed answer holding one assistant text and a usage block whose input and
 *   output token counts are `usage`.
 * - `functionCall`: a non-streamed answer holding one function call (`call`).
 * - `streamedText`: an SSE stream of one assistant text, `text`, split over several deltas.
 * - `streamedToolCall`: an SSE stream of one function call whose arguments arrive as deltas.
 * - `rateLimited`: an HTTP 429 error body with a `retry-after` (or `retry-after-ms`) header
 *   worth `retryAfterMs` milliseconds. Served twice (once per call style).
 * - `badRequest`: an HTTP 400 error body. Served twice (once per call style).
 *
 * @example
 * rateLimited: { response: { kind: 'json', status: 429, headers: { 'retry-after': '2' }, body: {...} }, retryAfterMs: 2000 }
 */
export interface ModelConformanceFixtures {
  text: {
    response: FixtureResponse;
    text: string;
    usage: { inputTokens: number; outputTokens: number };
  };
  functionCall: { response: FixtureResponse; call: ExpectedFunctionCall };
  streamedText: { response: FixtureResponse; text: string };
  streamedToolCall: { response: FixtureResponse; call: ExpectedFunctionCall };
  rateLimited: { response: FixtureResponse; retryAfterMs: number };
  badRequest: { response: FixtureResponse };
}

/** Builds the model under test, pointed at `server.url` (e.g. as the vendor client's `baseURL`). */
export type ModelFactory = (server: FixtureServer) => Model | Promise<Model>;

const USER_TEXT = 'Conformance: say hello.';
const INSTRUCTIONS = 'You are the conformance test assistant.';

/**
 * Registers a vitest `describe` block named `Model conformance: <name>` that checks, against a
 * fresh fixture server per test:
 *
 * - `specificationVersion` is `'v1'`; `provider` and `modelId` are non-empty;
 * - `getResponse` on `text` returns an assistant `message` item with the text and `usage`
 *   (`inputTokens`, `outputTokens`, `requests: 1`), and the request body carries the user text
 *   and the system instructions;
 * - `getResponse` on `functionCall` returns a `function_call` item with `call_id`, `name` and a
 *   JSON-string `arguments`;
 * - `getStreamedResponse` emits `text_delta`s whose concatenation equals the final text, and
 *   ends with exactly one `response_done` (the last event);
 * - streamed tool-call argument deltas concatenate to the final call's arguments (as JSON);
 * - HTTP 429 throws `ModelCallError` with `statusCode: 429`, `retryable: true` and
 *   `retryAfterMs` from the header, and `getRetryAdvice` (when implemented) says retry;
 * - HTTP 400 throws `ModelCallError` with `retryable: false`;
 * - the model never retries by itself (one HTTP request per call: configure the vendor client
 *   with `maxRetries: 0`; the kernel owns retries).
 *
 * The request sent declares one function tool named after the expected call (`parameters`: an
 * open object schema, `strict: false`) so that tool-call fixtures match the request.
 */
export function describeModelConformance(
  name: string,
  factory: ModelFactory,
  fixtures: ModelConformanceFixtures,
): void {
  describe(`Model conformance: ${name}`, () => {
    let server: FixtureServer;
    beforeEach(async () => {
      server = await startFixtureServer();
    });
    afterEach(async () => {
      await server.close();
    });

    it('declares specificationVersion v1 and names its provider and model', async () => {
      const model = await factory(server);
      expect(model.specificationVersion).toBe('v1');
      expect(typeof model.provider).toBe('string');
      expect(model.provider.length).toBeGreaterThan(0);
      expect(model.modelId.length).toBeGreaterThan(0);
    });

    it('getResponse: a text answer becomes one assistant message item with the text and usage', async () => {
      const model = await factory(server);
      server.enqueue(fixtures.text.response);
      const response = await model.getResponse(baseRequest());
      const messages = assistantMessages(response.output);
      expect(messages.map(extractText).join('')).toBe(fixtures.text.text);
      expect(response.usage.inputTokens).toBe(fixtures.text.usage.inputTokens);
      expect(response.usage.outputTokens).toBe(fixtures.text.usage.outputTokens);
      expect(response.usage.requests).toBe(1);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0].rawBody).toContain(USER_TEXT);
      expect(server.requests[0].rawBody).toContain(INSTRUCTIONS);
    });

    it('getResponse: a function call becomes a function_call item with call_id, name and JSON arguments', async () => {
      const model = await factory(server);
      server.enqueue(fixtures.functionCall.response);
      const response = await model.getResponse(baseRequest(fixtures.functionCall.call.name));
      expectCall(response.output, fixtures.functionCall.call);
    });

    it('getStreamedResponse: text deltas concatenate to the final text; exactly one response_done, last', async () => {
      const model = await factory(server);
      server.enqueue(fixtures.streamedText.response);
      const events = await collect(model.getStreamedResponse(baseRequest()));
      const done = expectSingleDone(events);
      const deltas = events.filter((e) => e.type === 'text_delta').map((e) => e.delta);
      expect(deltas.length).toBeGreaterThan(0);
      const finalText = assistantMessages(done.output).map(extractText).join('');
      expect(deltas.join('')).toBe(finalText);
      expect(finalText).toBe(fixtures.streamedText.text);
    });

    it('getStreamedResponse: argument deltas concatenate to the final function_call arguments', async () => {
      const model = await factory(server);
      server.enqueue(fixtures.streamedToolCall.response);
      const events = await collect(
        model.getStreamedResponse(baseRequest(fixtures.streamedToolCall.call.name)),
      );
      const done = expectSingleDone(events);
      const call = expectCall(done.output, fixtures.streamedToolCall.call);
      const args = events
        .filter((e) => e.type === 'function_call_arguments_delta')
        .map((e) => e.delta);
      expect(args.length).toBeGreaterThan(0);
      expect(JSON.parse(args.join(''))).toEqual(JSON.parse(call.arguments));
    });

    it('HTTP 429: ModelCallError retryable with statusCode 429 and retryAfterMs; advice says retry', async () => {
      const model = await factory(server);
      server.enqueue(fixtures.rateLimited.response, fixtures.rateLimited.response);
      const errors = [
        await failure(() => model.getResponse(baseRequest())),
        await failure(() => collect(model.getStreamedResponse(baseRequest()))),
      ];
      for (const error of errors) {
        expect(ModelCallError.isInstance(error)).toBe(true);
        const e = error as ModelCallError;
        expect(e.statusCode).toBe(429);
        expect(e.retryable).toBe(true);
        expect(e.retryAfterMs).toBe(fixtures.rateLimited.retryAfterMs);
        const advice = model.getRetryAdvice?.(e, 1);
        if (advice !== undefined) expect(advice.retry).toBe(true);
      }
      expect(server.requests).toHaveLength(2);
    });

    it('HTTP 400: ModelCallError not retryable, and not retried by the model itself', async () => {
      const model = await factory(server);
      server.enqueue(fixtures.badRequest.response, fixtures.badRequest.response);
      const errors = [
        await failure(() => model.getResponse(baseRequest())),
        await failure(() => collect(model.getStreamedResponse(baseRequest()))),
      ];
      for (const error of errors) {
        expect(ModelCallError.isInstance(error)).toBe(true);
        const e = error as ModelCallError;
        expect(e.statusCode).toBe(400);
        expect(e.retryable).toBe(false);
        const advice = model.getRetryAdvice?.(e, 1);
        if (advice !== undefined) expect(advice.retry).toBe(false);
      }
      expect(server.requests).toHaveLength(2);
    });
  });
}

function baseRequest(toolName?: string): ModelRequest {
  return {
    systemInstructions: INSTRUCTIONS,
    input: [{ type: 'message', role: 'user', content: USER_TEXT }],
    tools: toolName
      ? [
          {
            type: 'function',
            name: toolName,
            description: `The ${toolName} tool.`,
            parameters: { type: 'object', properties: {}, additionalProperties: true },
            strict: false,
          },
        ]
      : [],
    modelSettings: {},
    tracing: { enabled: false, includeSensitiveData: false },
  };
}

function assistantMessages(output: Item[]): MessageItem[] {
  const messages = output.filter(
    (i): i is MessageItem => i.type === 'message' && (i as MessageItem).role === 'assistant',
  );
  expect(messages.length).toBeGreaterThan(0);
  return messages;
}

function expectCall(output: Item[], expected: ExpectedFunctionCall): FunctionCallItem {
  const calls = output.filter((i): i is FunctionCallItem => i.type === 'function_call');
  expect(calls).toHaveLength(1);
  const call = calls[0];
  expect(call.call_id).toBe(expected.callId);
  expect(call.name).toBe(expected.name);
  expect(typeof call.arguments).toBe('string');
  expect(JSON.parse(call.arguments)).toEqual(expected.arguments);
  return call;
}

function expectSingleDone(events: ModelStreamEvent[]): ModelResponse {
  const dones = events.filter((e) => e.type === 'response_done');
  expect(dones).toHaveLength(1);
  const last = events[events.length - 1];
  expect(last.type).toBe('response_done');
  return (last as Extract<ModelStreamEvent, { type: 'response_done' }>).response;
}

async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    if (events.length > 100_000)
      throw new Error('conformance: stream did not end within 100000 events');
  }
  return events;
}

async function failure(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('conformance: expected the call to throw, but it succeeded');
}
