/**
 * `AnthropicMessagesModel`: the kernel `Model` v1 on the Anthropic Messages API, through the
 * unmodified `@anthropic-ai/sdk` client (`client.messages.create`, `stream: true` for streaming).
 */
import Anthropic, { APIError } from '@anthropic-ai/sdk';
import type {
  MessageCreateParamsNonStreaming,
  MessageCreateParamsStreaming,
} from '@anthropic-ai/sdk/resources/messages';
import {
  addUsage,
  BatonError,
  emptyUsage,
  type Item,
  type Model,
  ModelCallError,
  type ModelEndpoint,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
  type RetryAdvice,
} from '@baton/kernel';
import {
  anthropicSseRules,
  assertValidOutputItems,
  StreamPump,
  sseCall,
} from '@baton/provider-utils';
import { anthropicEndpointOf } from './anthropic-endpoint.js';
import {
  afterOutput,
  anthropicRetryAdvice,
  toModelCallError,
  toStreamReadError,
} from './anthropic-errors.js';
import { type AnthropicRequestOptions, buildAnthropicRequest } from './anthropic-request.js';
import { AnthropicStreamMapper } from './anthropic-stream.js';
import {
  type AnthropicMessageLike,
  convertFromAnthropicOutput,
} from './convert-from-anthropic-output.js';
import { ANTHROPIC_PROVIDER_ID } from './convert-to-anthropic-input.js';

/**
 * The body of a streamed call is read by `sseEvents` under `@anthropic-ai/sdk`'s own stream rules
 * (an `error` event is the SDK's `APIError`), not by the SDK's iterator: see
 * `@baton/provider-utils` `sseEvents`.
 */
const ANTHROPIC_SSE = anthropicSseRules(
  (body, type, headers) =>
    new APIError(undefined, body as object, undefined, headers, type as never),
);

const OUTPUT_EVENTS = new Set([
  'output_item_added',
  'output_item_done',
  'text_delta',
  'reasoning_delta',
  'function_call_arguments_delta',
]);

/** Options of {@link AnthropicMessagesModel}. */
export interface AnthropicMessagesModelOptions extends AnthropicRequestOptions {
  /**
   * The client to call. Used unmodified; every call passes `maxRetries: 0` because the kernel
   * owns retries. Default: `new Anthropic({ apiKey, baseURL, maxRetries: 0 })`.
   */
  client?: Anthropic;
  /** API key for the default client (default: the SDK reads `ANTHROPIC_API_KEY`). */
  apiKey?: string;
  /** Base URL for the default client (default: the SDK's, `https://api.anthropic.com`). */
  baseURL?: string;
  /**
   * How many times one `getResponse` / `getStreamedResponse` call continues a response that
   * stopped with `pause_turn` (a long server-tool turn), by sending it back as is. The outputs
   * and usage of all the calls are merged into one response. Default 3; 0 returns paused
   * responses as they are.
   */
  maxPauseTurnContinuations?: number;
}

/**
 * A `Model` (v1, provider id `'anthropic'`) for the Anthropic Messages API.
 * See `buildAnthropicRequest` for the request mapping and `convertFromAnthropicOutput` for the
 * response mapping. Errors from the API become `ModelCallError` naming the request URL
 * (429/529/5xx retryable, with `retryAfterMs` from `retry-after-ms` / `retry-after`; a stream
 * that fails after output was streamed is never retryable); a body that is not a message (an
 * HTML page, no `content`) is a `ModelCallError`; an aborted call rejects with the signal's
 * reason; `max_tokens` inside a tool call, or an output item the kernel's schema rejects, is a
 * `ModelBehaviorError`.
 */
export class AnthropicMessagesModel implements Model {
  readonly specificationVersion = 'v1' as const;
  readonly provider = ANTHROPIC_PROVIDER_ID;
  readonly modelId: string;
  /** The SDK client this model calls. */
  readonly client: Anthropic;
  /** Where this model is served, for traces (`gen_ai.provider.name`, `server.address`, `server.port`). */
  readonly endpoint: ModelEndpoint;
  private readonly options: AnthropicMessagesModelOptions;
  private readonly url: string;

  constructor(modelId: string, options: AnthropicMessagesModelOptions = {}) {
    this.modelId = modelId;
    this.options = options;
    this.client =
      options.client ??
      new Anthropic({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: 0 });
    this.url = `${String(this.client.baseURL ?? '').replace(/\/+$/, '')}/v1/messages`;
    this.endpoint = anthropicEndpointOf(this.client.baseURL);
  }

  /**
   * Of the features a run checks (`Model.supports`), Anthropic serves only its own hosted tools
   * (`'hosted_tools:anthropic'`); prompt objects, OpenAI tool search and OpenAI native tools are
   * refused before the first call of an agent using them.
   */
  supports(feature: string): boolean {
    return feature === `hosted_tools:${ANTHROPIC_PROVIDER_ID}`;
  }

  /**
   * One non-streamed call (`client.messages.create`), continued on `pause_turn`.
   * @throws ModelCallError for API failures; UserError for requests Anthropic cannot take;
   *   ModelBehaviorError for `max_tokens` inside a tool call; the signal's reason when aborted.
   */
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const output: Item[] = [];
    const usage = emptyUsage();
    let last: ModelResponse | undefined;
    const earlier: ModelResponse[] = [];
    for (let call = 0; ; call++) {
      const body = this.body(request, output);
      let message: AnthropicMessageLike;
      try {
        const params = body as unknown as MessageCreateParamsNonStreaming;
        message = (await this.client.messages.create(params, {
          signal: request.signal,
          maxRetries: 0,
        })) as unknown as AnthropicMessageLike;
      } catch (error) {
        throw this.readFailure(error, request);
      }
      if (last) earlier.unshift(last);
      last = convertFromAnthropicOutput(message, this.url);
      output.push(...last.output);
      addUsage(usage, last.usage);
      if (!this.continuePaused(message, call)) break;
    }
    assertValidOutputItems(output, 'Anthropic Messages API');
    return this.merged(output, usage, last, earlier);
  }

  /**
   * One streamed call (`stream: true`; the SDK parses the SSE), as kernel stream events ending
   * with one `response_done`. Throws like {@link getResponse}; a stream that breaks or ends
   * before `message_stop` is a `ModelCallError`, retryable only while no output was streamed.
   */
  getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const output: Item[] = [];
    const usage = emptyUsage();
    let last: ModelResponse | undefined;
    const earlier: ModelResponse[] = [];
    let emitted = false;
    let call = -1;
    let mapper: AnthropicStreamMapper | undefined;
    const finish = (out: ModelStreamEvent[]): 'stop' => {
      assertValidOutputItems(output, 'Anthropic Messages API');
      out.push({ type: 'response_done', response: this.merged(output, usage, last, earlier) });
      return 'stop';
    };
    return new StreamPump<unknown, ModelStreamEvent>({
      open: () => {
        call++;
        mapper = new AnthropicStreamMapper({
          outputIndexBase: output.length,
          emitStarted: call === 0,
        });
        // The body is this call's own: `stream` is set on it (as a copy would place it).
        const body = this.body(request, output) as Record<string, unknown>;
        body.stream = true;
        return sseCall(request.signal, ANTHROPIC_SSE, (signal) =>
          this.client.messages.create(body as unknown as MessageCreateParamsStreaming, {
            signal,
            maxRetries: 0,
          }),
        );
      },
      step: (event, out) => {
        const from = out.length;
        const done = mapper!.step(event, out);
        if (!emitted)
          for (let i = from; i < out.length; i++)
            if (OUTPUT_EVENTS.has(out[i].type)) emitted = true;
        if (!done) return undefined;
        if (last) earlier.unshift(last);
        last = done.response;
        output.push(...last.output);
        addUsage(usage, last.usage);
        return this.continuePaused(done.message, call) ? 'reopen' : finish(out);
      },
      end: () => {
        if (request.signal?.aborted) throw request.signal.reason;
        throw new ModelCallError(
          `The Anthropic stream from ${this.url} ended before message_stop (connection dropped?). ${emitted ? 'Output had already been streamed, so the call is not replayed.' : 'Retrying may succeed.'}`,
          { retryable: !emitted, code: 'stream_incomplete' },
        );
      },
      // Reading the SDK stream fails as a `ModelCallError` (`toStreamReadError`); then like every
      // failure of a call: the abort reason, or the error mapped, not retryable after output.
      error: (error, phase) => {
        const failure = this.failure(
          phase === 'read' ? toStreamReadError(error, this.url) : error,
          request,
        );
        return emitted ? afterOutput(failure) : failure;
      },
    });
  }

  /** See `anthropicRetryAdvice`: retryable `ModelCallError`s are retried after `retryAfterMs`. */
  getRetryAdvice(error: unknown, _attempt: number): RetryAdvice | undefined {
    return anthropicRetryAdvice(error);
  }

  /** The request body; after a `pause_turn`, the paused output is appended to the input. */
  private body(request: ModelRequest, produced: Item[]) {
    const paused =
      produced.length === 0 ? request : { ...request, input: [...request.input, ...produced] };
    return buildAnthropicRequest(this.modelId, paused, this.options);
  }

  private continuePaused(message: AnthropicMessageLike, call: number): boolean {
    return (
      message.stop_reason === 'pause_turn' && call < (this.options.maxPauseTurnContinuations ?? 3)
    );
  }

  private merged(
    output: Item[],
    usage: ModelResponse['usage'],
    last: ModelResponse | undefined,
    earlier: ModelResponse[] = [],
  ): ModelResponse {
    const response: ModelResponse = { output, usage };
    // The latest response id; the model name from the latest call that reported one.
    if (last?.responseId) response.responseId = last.responseId;
    const modelName = [last, ...earlier].find((r) => r?.modelName)?.modelName;
    if (modelName) response.modelName = modelName;
    return response;
  }

  /** A failure of the SDK call (request or reading the body): as `failure`, and anything else the SDK threw is an invalid response. */
  private readFailure(error: unknown, request: ModelRequest): unknown {
    const mapped = this.failure(error, request);
    if (request.signal?.aborted || BatonError.isInstance(mapped)) return mapped;
    if (mapped instanceof Anthropic.APIUserAbortError) return mapped;
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return new ModelCallError(
      `The @anthropic-ai/sdk client could not read the answer from ${this.url} (${detail.replace(/[.\s]+$/, '')}). It does not follow the Messages API; check baseURL and any proxy in between.`,
      { code: 'invalid_response', cause: error },
    );
  }

  private failure(error: unknown, request: ModelRequest): unknown {
    if (request.signal?.aborted) return request.signal.reason ?? error;
    return toModelCallError(error, this.url);
  }
}
