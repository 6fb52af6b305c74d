/**
 * `OpenAIResponsesModel`: the kernel's `Model` v1 on the OpenAI Responses API
 * (`POST /v1/responses`), through the official, unmodified `openai` client.
 */
import type {
  Model,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  RetryAdvice,
} from '@baton/kernel';
import type OpenAI from 'openai';
import type {
  ResponseCreateParamsNonStreaming,
  ResponseCreateParamsStreaming,
} from 'openai/resources/responses/responses';
import { fromResponsesResponse, type ResponsesResponseLike } from './convert-from-openai-output.js';
import { buildResponsesRequest, type ContextManagementOptions } from './convert-to-openai-input.js';
import { getOpenAIRetryAdvice, toModelCallError } from './openai-errors.js';
import { toModelStreamEvents } from './openai-stream.js';

/** Options of {@link OpenAIResponsesModel}. */
export interface OpenAIResponsesModelOptions {
  /**
   * The `openai` client to call. Give it `maxRetries: 0` so the kernel's retry policy (which
   * reads {@link OpenAIResponsesModel.getRetryAdvice}) is the only one.
   */
  client: OpenAI;
  /** Server-side compaction: sends `context_management: [{ type: 'compaction', compact_threshold }]`. */
  contextManagement?: ContextManagementOptions;
}

/**
 * A `Model` (v1) for the OpenAI Responses API. Requests are built by `buildResponsesRequest`;
 * responses keep the Responses item shape (see `fromResponsesResponse`); streams are mapped by
 * `toModelStreamEvents`. `previousResponseId` / `conversationId` of the request are sent as
 * `previous_response_id` / `conversation` (the kernel sends only the new items then).
 *
 * Errors: every failure is a `ModelCallError` (`statusCode`, `code`, `retryable`,
 * `retryAfterMs`; see `toModelCallError`), an incomplete response without usable output is a
 * `ModelBehaviorError`, a hosted tool of another provider is a `UserError`, and an abort
 * through `request.signal` rethrows the signal's reason.
 */
export class OpenAIResponsesModel implements Model {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'openai';
  readonly modelId: string;
  private readonly client: OpenAI;
  private readonly contextManagement?: ContextManagementOptions;

  constructor(modelId: string, options: OpenAIResponsesModelOptions) {
    this.modelId = modelId;
    this.client = options.client;
    this.contextManagement = options.contextManagement;
  }

  /** One non-streamed call. */
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const body = this.body(request);
    delete body.stream;
    let response: unknown;
    try {
      response = await this.client.responses.create(
        body as unknown as ResponseCreateParamsNonStreaming,
        {
          signal: request.signal,
        },
      );
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason ?? error;
      throw toModelCallError(error);
    }
    return fromResponsesResponse(response as ResponsesResponseLike);
  }

  /** One streamed call (`stream: true`); the SDK parses the SSE, this maps the events. */
  async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const body = { ...this.body(request), stream: true };
    let stream: AsyncIterable<unknown>;
    try {
      stream = await this.client.responses.create(
        body as unknown as ResponseCreateParamsStreaming,
        {
          signal: request.signal,
        },
      );
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason ?? error;
      throw toModelCallError(error);
    }
    yield* toModelStreamEvents(stream, { signal: request.signal });
  }

  /** `{ retry, delayMs }` from a `ModelCallError` (or a raw `openai` error); see `getOpenAIRetryAdvice`. */
  getRetryAdvice(error: unknown, attempt: number): RetryAdvice | undefined {
    return getOpenAIRetryAdvice(error, attempt);
  }

  private body(request: ModelRequest) {
    return buildResponsesRequest(request, {
      modelId: this.modelId,
      contextManagement: this.contextManagement,
    });
  }
}
