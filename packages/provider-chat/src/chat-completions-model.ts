/**
 * `ChatCompletionsModel`: the kernel's `Model` v1 over the Chat Completions API of any
 * OpenAI-compatible endpoint, through the official `openai` client.
 */

import {
  type Model,
  ModelCallError,
  type ModelEndpoint,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
  type RetryAdvice,
} from '@baton/kernel';
import { assertValidOutputItems, openaiSseRules, sseCall } from '@baton/provider-utils';
import type OpenAI from 'openai';
import { APIError } from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { getChatRetryAdvice, readFailure } from './chat-errors.js';
import { convertChatStream } from './chat-stream.js';
import { convertFromChatOutput } from './convert-from-chat-output.js';
import { type ChatInputOptions, convertToChatInput } from './convert-to-chat-input.js';
import { endpointOf, toolCallIdFormatFor } from './endpoint.js';

/**
 * The body of a streamed call is read by `sseEvents` under the `openai` SDK's own stream rules
 * (errors in the stream are the SDK's `APIError`), not by the SDK's iterator: see
 * `@baton/provider-utils` `sseEvents`.
 */
const OPENAI_SSE = openaiSseRules(
  (error, headers) => new APIError(undefined, error as object, undefined, headers),
);

/** Options of {@link ChatCompletionsModel}. */
export interface ChatCompletionsModelOptions {
  /** An `openai` client pointed at the endpoint. Requests are sent with `maxRetries: 0` (the kernel retries). */
  client: OpenAI;
  /** Model name sent as `model`, e.g. `'gpt-4.1-mini'` or `'deepseek-chat'`. */
  modelId: string;
  /** Provider id: `Model.provider`, the `providerOptions` / `provider_data` key. Default `'chat'`. */
  providerId?: string;
  /** `'replay'` sends DeepSeek-style `reasoning_content` back on assistant messages. Default `'drop'`. */
  reasoningContent?: 'drop' | 'replay';
  /** `'native'` (default): `response_format` json_schema; `'instructions'`: schema in the system prompt. */
  structuredOutput?: 'native' | 'instructions';
  /**
   * The GenAI semantic-conventions `gen_ai.provider.name` for traces (e.g. `'deepseek'`,
   * `'groq'`, `'mistral_ai'`, `'gcp.gemini'`). Default: derived from the client's base URL host
   * when it is a known vendor's, else `'openai'` (the conventions' value for an OpenAI-compatible
   * client when the actual system is not known).
   */
  providerName?: string;
  /**
   * How tool call ids are sent back: `'any'` as they are; `'alphanumeric9'` mapped to 9
   * letters/digits (Mistral rejects other ids: "Tool call id … must be a-z, A-Z, 0-9, with a
   * length of 9"). Default: `'alphanumeric9'` for api.mistral.ai, else `'any'`.
   */
  toolCallIdFormat?: 'any' | 'alphanumeric9';
  /**
   * Where the history's system/developer messages go: `'in_place'` (default, as the peers send
   * them) or `'first'` (after the instructions, for chat templates that take system messages
   * only at the start). See `ChatMessageOptions.systemMessages`.
   */
  systemMessages?: 'in_place' | 'first';
}

/**
 * A Chat Completions model (`POST /chat/completions`), `Model` v1.
 *
 * - `getResponse` sends one non-streamed request and converts the `chat.completion` body.
 * - `getStreamedResponse` sends `stream: true` with `stream_options: { include_usage: true }`
 *   and yields kernel stream events ending with `response_done` (see `convertChatStream`).
 * - Errors become `ModelCallError` naming the request URL (HTTP 408/409/429/5xx and connection
 *   failures before output are retryable, with `retryAfterMs` from `retry-after-ms` /
 *   `retry-after`); `getRetryAdvice` reports that to the kernel's retry policy. A body that is not
 *   a Chat Completions object (an HTML page, `data: null` in a stream) is a `ModelCallError`; an
 *   output item the kernel's item schema rejects is a `ModelBehaviorError`.
 *
 * @throws UserError from both methods, before any request is sent, for hosted tools and other
 *   Responses-only features (see `convertToChatInput`).
 */
export class ChatCompletionsModel implements Model {
  readonly specificationVersion = 'v1' as const;
  readonly provider: string;
  readonly modelId: string;
  /** Where this model is served, for traces (`gen_ai.provider.name`, `server.address`, `server.port`). */
  readonly endpoint: ModelEndpoint;
  private readonly client: OpenAI;
  private readonly inputOptions: ChatInputOptions;
  private readonly url: string;

  constructor(options: ChatCompletionsModelOptions) {
    this.client = options.client;
    this.modelId = options.modelId;
    this.provider = options.providerId ?? 'chat';
    this.url = `${String(this.client.baseURL ?? '').replace(/\/+$/, '')}/chat/completions`;
    this.endpoint = endpointOf(this.client.baseURL, options.providerName);
    this.inputOptions = {
      providerId: this.provider,
      reasoningContent: options.reasoningContent ?? 'drop',
      structuredOutput: options.structuredOutput ?? 'native',
      toolCallIdFormat: options.toolCallIdFormat ?? toolCallIdFormatFor(this.client.baseURL),
      systemMessages: options.systemMessages ?? 'in_place',
    };
  }

  /**
   * Chat Completions has none of the features a run checks (`Model.supports`): prompt objects,
   * tool search, hosted or native tools are refused before the first call of an agent using them.
   */
  supports(_feature: string): boolean {
    return false;
  }

  /** Builds the request body this model would send for `request` (no network). */
  buildRequestBody(request: ModelRequest): Record<string, unknown> {
    return convertToChatInput(request, this.modelId, this.inputOptions);
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const body = convertToChatInput(request, this.modelId, this.inputOptions);
    let completion: unknown;
    try {
      completion = await this.client.chat.completions.create(
        { ...body, stream: false },
        { signal: request.signal, maxRetries: 0 },
      );
    } catch (error) {
      request.signal?.throwIfAborted();
      if (error instanceof SyntaxError) {
        throw new ModelCallError(
          `${this.provider} (Chat Completions) at ${this.url} answered with a JSON content type but a body that is not JSON (${error.message}). Check baseURL and any proxy in between.`,
          { code: 'invalid_response', cause: error },
        );
      }
      throw readFailure(error, { providerId: this.provider, url: this.url });
    }
    const response = convertFromChatOutput(completion, this.provider, this.url);
    assertValidOutputItems(response.output, `${this.provider} (Chat Completions)`);
    return response;
  }

  /** One streamed call; `convertChatStream` maps the chunks. Nothing is sent before the first `next()`. */
  getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const open = () => {
      // The body is this call's own: the stream fields are set on it (same keys, same order as
      // a copy `{ ...body, stream, stream_options }`), not copied.
      const body: Record<string, unknown> = convertToChatInput(
        request,
        this.modelId,
        this.inputOptions,
      );
      const streamOptions = { include_usage: true, ...(body.stream_options as object | undefined) };
      body.stream = true;
      body.stream_options = streamOptions;
      return sseCall(request.signal, OPENAI_SSE, (signal) =>
        this.client.chat.completions.create(
          body as unknown as ChatCompletionCreateParamsStreaming,
          { signal, maxRetries: 0 },
        ),
      );
    };
    return convertChatStream(open, {
      providerId: this.provider,
      signal: request.signal,
      url: this.url,
    });
  }

  getRetryAdvice(error: unknown, attempt: number): RetryAdvice | undefined {
    return getChatRetryAdvice(error, attempt, this.provider);
  }
}
