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
  const item = { ...(raw as Record<string, unknown>) };
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
  const inputTokens = usage?.input_tokens ?? 0;
  const outputTokens = usage?.output_tokens ?? 0;
  return {
    requests: 1,
    inputTokens,
    outputTokens,
    totalTokens: usage?.total_tokens ?? inputTokens + outputTokens,
    cachedInputTokens: usage?.input_tokens_details?.cached_tokens ?? 0,
    cacheCreationInputTokens: 0,
    reasoningTokens: usage?.output_tokens_details?.reasoning_tokens ?? 0,
  };
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
  /** Items collected from `response.output_item.done` events, used when `response.output` is empty. */
  fallbackOutput?: Item[];
  /** Whether output already reached the caller (decides retryability of a failure). */
  outputEmitted?: boolean;
}

/**
 * Converts a whole response. `status: 'failed'` throws `ModelCallError` (server message and
 * code; see `streamFailure`). `status: 'incomplete'` is returned as is when
 * {@link hasUsableOutput} holds (the items keep their `incomplete` status, so a truncated text is
 * visible as such); otherwise it throws `ModelBehaviorError` naming `incomplete_details.reason`.
 */
export function fromResponsesResponse(
  response: ResponsesResponseLike,
  options: FromResponsesResponseOptions = {},
): ModelResponse {
  if (response.status === 'failed') {
    throw streamFailure(response.error ?? {}, {
      outputEmitted: options.outputEmitted ?? false,
      source: 'response.failed',
    });
  }
  let output = (response.output ?? []).map(fromResponsesOutputItem);
  if (output.length === 0 && options.fallbackOutput && options.fallbackOutput.length > 0)
    output = options.fallbackOutput;
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
  if (response.id) result.responseId = response.id;
  if (response.model) result.modelName = response.model;
  return result;
}

function messageHasContent(item: MessageItem): boolean {
  if (typeof item.content === 'string') return item.content !== '';
  return item.content.some(
    (p) =>
      (p.type === 'output_text' && p.text !== '') || (p.type === 'refusal' && p.refusal !== ''),
  );
}

function messageText(item: MessageItem): string {
  if (typeof item.content === 'string') return item.content;
  return item.content.map((p) => (p.type === 'output_text' ? p.text : '')).join('');
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
