/**
 * OpenAI Responses API response → Baton `ModelResponse`. Output items already have the kernel's
 * shape (the kernel's vocabulary *is* the Responses item format), so they pass through: messages
 * (with `phase`, annotations, refusals), `function_call`, `reasoning` (with `encrypted_content`
 * when requested) and hosted-tool items (`web_search_call`, `mcp_approval_request`, `compaction`,
 * …) unchanged. Source: https://platform.openai.com/docs/api-reference/responses/object
 */
import {
  type Item,
  type MessageItem,
  ModelBehaviorError,
  ModelCallError,
  type ModelResponse,
  type Usage,
} from '@baton/kernel';
import { streamFailure } from './openai-errors.js';

/** The fields of a Responses `response` object this module reads. */
export interface ResponsesResponseLike {
  id?: string;
  model?: string;
  status?: string | null;
  output?: unknown[] | null;
  usage?: ResponsesUsageLike | null;
  error?: { code?: string | null; message?: string | null } | null;
  incomplete_details?: { reason?: string | null } | null;
}

/** The Responses `usage` block. */
export interface ResponsesUsageLike {
  input_tokens?: number | null;
  output_tokens?: number | null;
  total_tokens?: number | null;
  input_tokens_details?: { cached_tokens?: number | null } | null;
  output_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/**
 * One output item → one kernel item: a shallow copy; a `reasoning` item without `summary` gets
 * `summary: []`. Everything else is kept byte for byte (ids, `status`, `encrypted_content`, …).
 */
export function fromResponsesOutputItem(raw: unknown): Item {
  // Not an object: `{}` (no `type`), which the output check rejects with a clear error.
  const item: Record<string, unknown> = isRecord(raw) ? { ...raw } : {};
  if (item.type === 'reasoning' && !Array.isArray(item.summary)) item.summary = [];
  return item as unknown as Item;
}

/**
 * Responses usage → Baton usage: `input_tokens` → `inputTokens`, `output_tokens` →
 * `outputTokens`, `total_tokens` → `totalTokens` (input + output when absent),
 * `input_tokens_details.cached_tokens` → `cachedInputTokens`,
 * `output_tokens_details.reasoning_tokens` → `reasoningTokens`, `requests: 1`. A missing usage
 * block counts as zeros.
 */
export function fromResponsesUsage(usage: ResponsesUsageLike | null | undefined): Usage {
  const u = isRecord(usage) ? usage : {};
  const inputTokens = num(u.input_tokens);
  const outputTokens = num(u.output_tokens);
  return {
    requests: 1,
    inputTokens,
    outputTokens,
    totalTokens: num(u.total_tokens, inputTokens + outputTokens),
    cachedInputTokens: num(
      isRecord(u.input_tokens_details) ? u.input_tokens_details.cached_tokens : 0,
    ),
    cacheCreationInputTokens: 0,
    reasoningTokens: num(
      isRecord(u.output_tokens_details) ? u.output_tokens_details.reasoning_tokens : 0,
    ),
  };
}

/** A finite, non-negative token count, else `fallback` (counts of the wrong type are ignored). */
function num(value: unknown, fallback = 0): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

const isRecord = (value: unknown): value is Record<string, any> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The start of a body that is not a Responses object, for error messages. */
export function bodySnippet(body: unknown): string {
  if (typeof body === 'string') {
    const text = body.trim().replace(/\s+/g, ' ');
    return text === '' ? 'an empty body' : `it starts with ${JSON.stringify(text.slice(0, 80))}`;
  }
  if (body === undefined) return 'an empty body';
  return `got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}`;
}

/**
 * Whether an `incomplete` response still holds output the loop can act on. The rule: every
 * `function_call` in it is complete (status not `incomplete`/`in_progress`, arguments parse as
 * JSON) — a truncated call must never run — and at least one item is a message with text or a
 * refusal, or a complete function call. A response that spent its whole budget on reasoning has
 * nothing usable.
 */
export function hasUsableOutput(output: readonly Item[]): boolean {
  let usable = false;
  for (const item of output) {
    if (item.type === 'function_call') {
      if (item.status === 'incomplete' || item.status === 'in_progress' || !isJson(item.arguments))
        return false;
      usable = true;
    } else if (item.type === 'message' && messageHasContent(item)) {
      usable = true;
    }
  }
  return usable;
}

/** Options of {@link fromResponsesResponse}. */
export interface FromResponsesResponseOptions {
  /**
   * Items collected from `response.output_item.done` events, used when `response.output` is
   * empty; or a function returning them, called only then (a stream's items are assembled only
   * when the terminal event carries no output).
   */
  fallbackOutput?: Item[] | (() => Item[]);
  /** Whether output already reached the caller (decides retryability of a failure). */
  outputEmitted?: boolean;
  /** The request URL, named in error messages. */
  url?: string;
}

/**
 * Converts a whole response. A body that is not a JSON object (an HTML page from a proxy, a
 * wrong `baseURL`), or whose `output` is not a list (or, outside a stream, is missing), throws
 * `ModelCallError` (`code: 'invalid_response'`). `status: 'failed'` throws `ModelCallError`
 * (server message and code; see `streamFailure`). `status: 'incomplete'` is returned as is when
 * {@link hasUsableOutput} holds (the items keep their `incomplete` status, so a truncated text is
 * visible as such); otherwise it throws `ModelBehaviorError` naming `incomplete_details.reason`.
 */
export function fromResponsesResponse(
  response: ResponsesResponseLike,
  options: FromResponsesResponseOptions = {},
): ModelResponse {
  const at = options.url ? ` at ${options.url}` : '';
  if (!isRecord(response)) {
    throw new ModelCallError(
      `OpenAI Responses API${at} answered with a body that is not a JSON object (${bodySnippet(response)}). Check baseURL: it must point at the API (e.g. https://api.openai.com/v1), not at a web page or proxy login.`,
      { code: 'invalid_response' },
    );
  }
  const streamed = options.fallbackOutput !== undefined;
  if (
    response.status !== 'failed' &&
    (response.output === undefined
      ? !streamed
      : response.output !== null && !Array.isArray(response.output))
  ) {
    throw new ModelCallError(
      `OpenAI Responses API${at} answered with a response without an output list (output: ${JSON.stringify(response.output) ?? 'missing'}); it does not follow the Responses API. Check baseURL and the server.`,
      { code: 'invalid_response' },
    );
  }
  if (response.status === 'failed') {
    throw streamFailure(response.error ?? {}, {
      outputEmitted: options.outputEmitted ?? false,
      source: 'response.failed',
    });
  }
  let output = (response.output ?? []).map(fromResponsesOutputItem);
  if (output.length === 0 && options.fallbackOutput) {
    const fallback =
      typeof options.fallbackOutput === 'function'
        ? options.fallbackOutput()
        : options.fallbackOutput;
    if (fallback.length > 0) output = fallback;
  }
  if (response.status === 'incomplete' && !hasUsableOutput(output)) {
    const reason = response.incomplete_details?.reason ?? 'unknown';
    const hint =
      reason === 'max_output_tokens'
        ? 'Raise modelSettings.maxOutputTokens (reasoning tokens count against it) or lower reasoning effort.'
        : reason === 'content_filter'
          ? 'The content filter stopped the answer; rephrase the input.'
          : 'Retry or change the request.';
    throw new ModelBehaviorError(
      `OpenAI response ${response.id ?? ''} is incomplete (reason: ${reason}) and holds no usable output. ${hint}`.replace(
        '  ',
        ' ',
      ),
      {
        rawText:
          output
            .filter((i): i is MessageItem => i.type === 'message')
            .map(messageText)
            .join('') || undefined,
      },
    );
  }
  const result: ModelResponse = { output, usage: fromResponsesUsage(response.usage) };
  if (typeof response.id === 'string' && response.id) result.responseId = response.id;
  if (typeof response.model === 'string' && response.model) result.modelName = response.model;
  return result;
}

function messageHasContent(item: MessageItem): boolean {
  if (typeof item.content === 'string') return item.content !== '';
  if (!Array.isArray(item.content)) return false;
  return item.content.some(
    (p) =>
      (p?.type === 'output_text' && typeof p.text === 'string' && p.text !== '') ||
      (p?.type === 'refusal' && typeof p.refusal === 'string' && p.refusal !== ''),
  );
}

function messageText(item: MessageItem): string {
  if (typeof item.content === 'string') return item.content;
  if (!Array.isArray(item.content)) return '';
  return item.content
    .map((p) => (p?.type === 'output_text' && typeof p.text === 'string' ? p.text : ''))
    .join('');
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
