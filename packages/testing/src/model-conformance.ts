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
  type ModelResponse,
  type ModelStreamEvent,
  UserError,
} from '@baton/kernel';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FixtureResponse, type FixtureServer, startFixtureServer } from './fixture-server.js';
import {
  baseRequest,
  CONFORMANCE_SCHEMA,
  INSTRUCTIONS,
  toolRound,
  transcriptCases,
  USER_TEXT,
} from './model-conformance-input.js';
import { waitFor } from './test-redis.js';

/** A function call the fixture holds: its `call_id`, tool `name` and parsed `arguments` value. */
export interface ExpectedFunctionCall {
  callId: string;
  name: string;
  /** The arguments as a parsed JSON value (compared with `toEqual` after `JSON.parse`). */
  arguments: unknown;
}

/**
 * The wire responses the suite replays, each a {@link FixtureResponse} in the provider's own
 * wire format (a JSON body for non-streamed calls, an SSE body for streamed ones), plus the
 * values the suite expects the model to report. Every fixture answers one request (the suite
 * serves a fixture again when a case needs it twice).
 *
 * - `text`: a non-streamed answer holding one assistant text and a usage block whose input and
 *   output token counts are `usage`. Also served to the requests that check what a model sends
 *   (tool results, every item kind, the output schema).
 * - `functionCall`: a non-streamed answer holding one function call (`call`).
 * - `streamedText`: an SSE stream of one assistant text, `text`, split over several deltas,
 *   reporting `usage`. Also served slowly to check that an abort stops it.
 * - `streamedToolCall`: an SSE stream of one function call whose arguments arrive as deltas.
 * - `rateLimited`: an HTTP 429 error body with a `retry-after` (or `retry-after-ms`) header
 *   worth `retryAfterMs` milliseconds. Served twice (once per call style).
 * - `serverError`: an HTTP 5xx error body (500, 502, 503 or the provider's "overloaded").
 *   Served twice.
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
  streamedText: {
    response: FixtureResponse;
    text: string;
    usage: { inputTokens: number; outputTokens: number };
  };
  streamedToolCall: { response: FixtureResponse; call: ExpectedFunctionCall };
  rateLimited: { response: FixtureResponse; retryAfterMs: number };
  serverError: { response: FixtureResponse };
  badRequest: { response: FixtureResponse };
}

/** Builds the model under test, pointed at `server.url` (e.g. as the vendor client's `baseURL`). */
export type ModelFactory = (server: FixtureServer) => Model | Promise<Model>;

const SLOW_MS = 30_000;

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
 *   ends with exactly one `response_done` (the last event) whose usage is `streamedText.usage`;
 * - streamed tool-call argument deltas concatenate to the final call's arguments (as JSON);
 * - tool results reach the next request: a `function_call_output` (string and content-part
 *   output) is in the request body with its `call_id`, in both call styles;
 * - every item kind of the vocabulary (messages of each role, text/image/file parts, reasoning,
 *   part outputs, hosted items) is sent with its text in the body, or refused with `UserError`
 *   — never another error;
 * - `outputSchema` reaches the request (its property names are in the body);
 * - aborting `signal` mid-stream ends the iteration with an error (no `response_done`) and closes
 *   the connection; aborting a pending `getResponse` rejects it and closes the connection;
 * - HTTP 429 throws `ModelCallError` with `statusCode: 429`, `retryable: true` and
 *   `retryAfterMs` from the header, and `getRetryAdvice` (when implemented) says retry, not
 *   sooner than the header asks;
 * - HTTP 5xx throws `ModelCallError` with that `statusCode` and `retryable: true` (advice: retry);
 * - HTTP 400 throws `ModelCallError` with `retryable: false`;
 * - a connection reset before any response is a retryable `ModelCallError`; a stream cut in the
 *   middle of its body is a `ModelCallError` and yields no `response_done`;
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

    it('getStreamedResponse: text deltas concatenate to the final text; exactly one response_done, last, with usage', async () => {
      const model = await factory(server);
      server.enqueue(fixtures.streamedText.response);
      const events = await collect(model.getStreamedResponse(baseRequest()));
      const done = expectSingleDone(events);
      const deltas = events.filter((e) => e.type === 'text_delta').map((e) => e.delta);
      expect(deltas.length).toBeGreaterThan(0);
      const finalText = assistantMessages(done.output).map(extractText).join('');
      expect(deltas.join('')).toBe(finalText);
      expect(finalText).toBe(fixtures.streamedText.text);
      expect(done.usage.inputTokens).toBe(fixtures.streamedText.usage.inputTokens);
      expect(done.usage.outputTokens).toBe(fixtures.streamedText.usage.outputTokens);
      expect(done.usage.requests).toBe(1);
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
        // Never sooner than the server asked.
        if (advice?.delayMs !== undefined)
          expect(advice.delayMs).toBeGreaterThanOrEqual(fixtures.rateLimited.retryAfterMs);
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

    it('HTTP 5xx: ModelCallError retryable with its statusCode; advice says retry; not retried by the model', async () => {
      const model = await factory(server);
      server.enqueue(fixtures.serverError.response, fixtures.serverError.response);
      const errors = [
        await failure(() => model.getResponse(baseRequest())),
        await failure(() => collect(model.getStreamedResponse(baseRequest()))),
      ];
      for (const error of errors) {
        expect(ModelCallError.isInstance(error), describeError(error)).toBe(true);
        const e = error as ModelCallError;
        expect(e.statusCode).toBeGreaterThanOrEqual(500);
        expect(e.retryable).toBe(true);
        const advice = model.getRetryAdvice?.(e, 1);
        if (advice !== undefined) expect(advice.retry).toBe(true);
      }
      expect(server.requests).toHaveLength(2);
    });

    it('tool results reach the next request: each function_call_output is in the body with its call_id', async () => {
      const model = await factory(server);
      const name = fixtures.functionCall.call.name;
      const outputs: [string, string | { type: 'input_text'; text: string }[]][] = [
        ['call_conf_string', 'conf-tool-result-m13'],
        ['call_conf_parts', [{ type: 'input_text', text: 'conf-tool-result-parts-n14' }]],
      ];
      for (const [callId, output] of outputs) {
        server.enqueue(fixtures.text.response, fixtures.streamedText.response);
        const request = baseRequest(name, toolRound(name, callId, output));
        await model.getResponse(request);
        await collect(model.getStreamedResponse(request));
        const text = typeof output === 'string' ? output : output[0].text;
        for (const sent of server.requests.slice(-2)) {
          expect(sent.rawBody, 'the tool result is missing from the request').toContain(text);
          expect(sent.rawBody, 'the call id is missing from the request').toContain(callId);
        }
      }
    });

    it('transcript input: every item kind is sent with its text, or refused with UserError', async () => {
      const model = await factory(server);
      const name = fixtures.functionCall.call.name;
      for (const c of transcriptCases(name)) {
        server.enqueue(fixtures.text.response);
        const before = server.requests.length;
        const error = await model.getResponse(baseRequest(name, c.items)).then(
          () => undefined,
          (e: unknown) => e,
        );
        if (error !== undefined) {
          expect(UserError.isInstance(error), `${c.kind}: ${describeError(error)}`).toBe(true);
          continue;
        }
        expect(server.requests.length, c.kind).toBe(before + 1);
        for (const text of c.texts)
          expect(server.requests.at(-1)!.rawBody, `${c.kind}: "${text}" not sent`).toContain(text);
      }
    });

    it('output schema: outputSchema reaches the request', async () => {
      const model = await factory(server);
      server.enqueue(fixtures.text.response, fixtures.streamedText.response);
      const request = { ...baseRequest(), outputSchema: CONFORMANCE_SCHEMA };
      await model.getResponse(request);
      await collect(model.getStreamedResponse(request));
      for (const sent of server.requests) {
        expect(sent.rawBody).toContain('conformance_field_k11');
        expect(sent.rawBody).toContain('conformance_count_l12');
      }
    });

    it('abort: aborting mid-stream ends the iteration with an error and closes the connection; a pending call too', {
      timeout: SLOW_MS * 2,
    }, async () => {
      const model = await factory(server);
      server.enqueue(slowly(fixtures.streamedText.response));
      const streaming = new AbortController();
      const events: ModelStreamEvent[] = [];
      await failure(async () => {
        const request = { ...baseRequest(), signal: streaming.signal };
        for await (const event of model.getStreamedResponse(request)) {
          events.push(event);
          if (event.type === 'text_delta') streaming.abort(new Error('conformance abort'));
        }
      });
      expect(events.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(0);
      expect(events.some((e) => e.type === 'response_done')).toBe(false);
      await waitFor(
        () => server.requests[0].closedEarly,
        SLOW_MS,
        'the stream connection to close',
      );
      const pending = new AbortController();
      server.enqueue({
        ...(fixtures.text.response as object),
        delayMs: SLOW_MS,
      } as FixtureResponse);
      const call = model.getResponse({ ...baseRequest(), signal: pending.signal });
      await waitFor(() => server.requests.length === 2, SLOW_MS, 'the request');
      pending.abort(new Error('conformance abort'));
      await failure(() => call);
      await waitFor(() => server.requests[1].closedEarly, SLOW_MS, 'the connection to close');
    });

    it('a connection reset is a retryable ModelCallError; a stream cut mid-body a ModelCallError without response_done', async () => {
      const model = await factory(server);
      server.enqueue({ kind: 'reset' }, { kind: 'reset' });
      const resets = [
        await failure(() => model.getResponse(baseRequest())),
        await failure(() => collect(model.getStreamedResponse(baseRequest()))),
      ];
      for (const error of resets) {
        expect(ModelCallError.isInstance(error), describeError(error)).toBe(true);
        expect((error as ModelCallError).retryable).toBe(true);
      }
      expect(server.requests).toHaveLength(2);
      const streamed = fixtures.streamedText.response;
      if (streamed.kind !== 'sse') throw new Error('conformance: streamedText must be an SSE body');
      server.enqueue({ ...streamed, cutAfterBytes: Math.floor(streamed.body.length / 2) });
      const events: ModelStreamEvent[] = [];
      const cut = await failure(async () => {
        for await (const event of model.getStreamedResponse(baseRequest())) events.push(event);
      });
      expect(ModelCallError.isInstance(cut), describeError(cut)).toBe(true);
      expect(events.some((e) => e.type === 'response_done')).toBe(false);
    });
  });
}

/** The same SSE body, written 48 bytes every 25 ms (a slow stream to abort). */
function slowly(response: FixtureResponse): FixtureResponse {
  if (response.kind !== 'sse') throw new Error('conformance: streamedText must be an SSE body');
  return { ...response, chunkBytes: 48, chunkDelayMs: 25 };
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error);
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
