/**
 * `OpenAIResponsesModel`: the kernel's `Model` v1 on the OpenAI Responses API
 * (`POST /v1/responses`), through the official, unmodified `openai` client.
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
import type {
  ResponseCreateParamsNonStreaming,
  ResponseCreateParamsStreaming,
} from 'openai/resources/responses/responses';
import { fromResponsesResponse, type ResponsesResponseLike } from './convert-from-openai-output.js';
import { buildResponsesRequest, type ContextManagementOptions } from './convert-to-openai-input.js';
import { openAIEndpointOf } from './openai-endpoint.js';
import { getOpenAIRetryAdvice, readFailure } from './openai-errors.js';
import { toModelStreamEvents } from './openai-stream.js';

/**
 * The body of a streamed call is read by `sseEvents` under the `openai` SDK's own stream rules
 * (errors in the stream are the SDK's `APIError`), not by the SDK's iterator: see
 * `@baton/provider-utils` `sseEvents`.
 */
const OPENAI_SSE = openaiSseRules(
  (error, headers) => new APIError(undefined, error as object, undefined, headers),
);
/** Options of {@link OpenAIResponsesModel}. */
export interface OpenAIResponsesModelOptions {
  /**
   * The `openai` client to call. Every request is sent with `maxRetries: 0`, whatever the client
   * says, so the kernel's retry policy (which reads {@link OpenAIResponsesModel.getRetryAdvice})
   * is the only one.
   */
  client: OpenAI;
  /** Server-side compaction: sends `context_management: [{ type: 'compaction', compact_threshold }]`. */
  contextManagement?: ContextManagementOptions;
  /**
   * Offer tools that have a Responses tool type of their own (`NativeToolCall`: `shell`,
   * `local_shell`, `apply_patch`, `computer`) as that type. Default true; `false` sends their
   * function form (models without these tools; a computer tool is then refused).
   */
  nativeTools?: boolean;
  /**
   * The model name is the provider's default rather than the user's choice: a request with a
   * prompt object then leaves `model` out, so the prompt's own model is used.
   */
  modelIsDefault?: boolean;
  /**
   * `gen_ai.provider.name` on trace spans (GenAI semantic conventions). Default: `'azure.ai.openai'`
   * for an Azure OpenAI base URL (`*.openai.azure.com`, `*.cognitiveservices.azure.com`), else
   * `'openai'`.
   */
  providerName?: string;
}

/**
 * A `Model` (v1) for the OpenAI Responses API. Requests are built by `buildResponsesRequest`;
 * responses keep the Responses item shape (see `fromResponsesResponse`); streams are mapped by
 * `toModelStreamEvents`. `previousResponseId` / `conversationId` of the request are sent as
 * `previous_response_id` / `conversation` (the kernel sends only the new items then).
 *
 * Errors: every failure is a `ModelCallError` naming the request URL (`statusCode`, `code`,
 * `retryable`, `retryAfterMs`; see `toModelCallError`), a body that is not a Responses object is a
 * `ModelCallError` (`invalid_response`), an incomplete response without usable output or an
 * output item the kernel's schema rejects is a `ModelBehaviorError`, a hosted tool of another
 * provider is a `UserError`, and an abort through `request.signal` rethrows the signal's reason.
 * The SDK never retries on its own: requests go out with `maxRetries: 0`.
 */
export class OpenAIResponsesModel implements Model {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'openai';
  readonly modelId: string;
  /** Where this model is served, for traces (`gen_ai.provider.name`, `server.address`, `server.port`). */
  readonly endpoint: ModelEndpoint;
  private readonly client: OpenAI;
  private readonly contextManagement?: ContextManagementOptions;
  private readonly nativeTools: boolean;
  private readonly modelIsDefault: boolean;
  private readonly url: string;

  constructor(modelId: string, options: OpenAIResponsesModelOptions) {
    this.modelId = modelId;
    this.client = options.client;
    this.contextManagement = options.contextManagement;
    this.nativeTools = options.nativeTools ?? true;
    this.modelIsDefault = options.modelIsDefault ?? false;
    this.url = `${String(this.client.baseURL ?? '').replace(/\/+$/, '')}/responses`;
    this.endpoint = openAIEndpointOf(this.client.baseURL, options.providerName);
  }

  /**
   * One non-streamed call. The body is read here rather than by the SDK (`asResponse()`), so that
   * a body that is not a Responses object (an HTML page, invalid JSON, an item without content)
   * is reported as a Baton error instead of the SDK's own `TypeError`.
   */
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const body = this.body(request);
    delete body.stream;
    let parsed: unknown;
    try {
      const raw = await this.client.responses
        .create(body as unknown as ResponseCreateParamsNonStreaming, {
          signal: request.signal,
          maxRetries: 0,
        })
        .asResponse();
      parsed = await readBody(raw, this.url);
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason ?? error;
      throw readFailure(error, { url: this.url });
    }
    const result = fromResponsesResponse(parsed as ResponsesResponseLike, { url: this.url });
    assertValidOutputItems(result.output, 'OpenAI Responses API');
    return result;
  }

  /**
   * One streamed call (`stream: true`); the SDK parses the SSE, `toModelStreamEvents` maps the
   * events. Nothing is sent before the first `next()`.
   */
  getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const open = () => {
      // The body is this call's own: `stream` is set on it (as a copy `{ ...body, stream }` would
      // place it), not copied.
      const body = this.body(request);
      body.stream = true;
      return sseCall(request.signal, OPENAI_SSE, (signal) =>
        this.client.responses.create(body as unknown as ResponseCreateParamsStreaming, {
          signal,
          maxRetries: 0,
        }),
      );
    };
    return toModelStreamEvents(open, { signal: request.signal, url: this.url });
  }

  /**
   * The features a run checks before the first call (`Model.supports`): prompt objects
   * (`'prompt'`), tool search with deferred tools (`'tool_search'`), OpenAI hosted tools
   * (`'hosted_tools:openai'`) and — unless `nativeTools: false` — the native tool types
   * (`'native_tool:shell_call'`, `'native_tool:local_shell_call'`,
   * `'native_tool:apply_patch_call'`, `'native_tool:computer_call'`).
   */
  supports(feature: string): boolean {
    if (feature.startsWith('native_tool:'))
      return this.nativeTools && NATIVE_CALLS.has(feature.slice('native_tool:'.length));
    return feature === 'prompt' || feature === 'tool_search' || feature === 'hosted_tools:openai';
  }

  /** `{ retry, delayMs }` from a `ModelCallError` (or a raw `openai` error); see `getOpenAIRetryAdvice`. */
  getRetryAdvice(error: unknown, attempt: number): RetryAdvice | undefined {
    return getOpenAIRetryAdvice(error, attempt);
  }

  private body(request: ModelRequest) {
    return buildResponsesRequest(request, {
      modelId: this.modelId,
      contextManagement: this.contextManagement,
      modelIsDefault: this.modelIsDefault,
    });
  }
}

/** Call item types of the Responses tool types this model offers natively. */
const NATIVE_CALLS = new Set([
  'shell_call',
  'local_shell_call',
  'apply_patch_call',
  'computer_call',
]);

/** The body of a 2xx response: parsed JSON for a JSON content type, else the text. */
async function readBody(response: Response, url: string): Promise<unknown> {
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  if (!/json/i.test(type)) return text;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ModelCallError(
      `OpenAI Responses API at ${url} answered with a JSON content type but a body that is not JSON (${JSON.stringify(text.slice(0, 80))}). Check baseURL and any proxy in between.`,
      { code: 'invalid_response', cause: error },
    );
  }
}
