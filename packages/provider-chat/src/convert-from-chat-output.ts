/**
 * A Chat Completions response → kernel items and usage (source: OpenAI Chat Completions API
 * reference, the `chat.completion` object; DeepSeek `reasoning_content` and
 * `prompt_cache_hit_tokens`; Groq `reasoning` and `x_groq.usage`).
 */

import {
  type FunctionCallItem,
  type MessageItem,
  ModelBehaviorError,
  ModelCallError,
  type ModelResponse,
  type ReasoningItem,
  type Usage,
} from '@baton/kernel';
import { argumentsText } from './chat-tool-calls.js';

/** The usage block of a completion or chunk, as the various OpenAI-compatible servers send it. */
export interface ChatUsageWire {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  /** DeepSeek's name for cached prompt tokens. */
  prompt_cache_hit_tokens?: number | null;
}

/**
 * Maps a usage block to the kernel's `Usage` (`requests: 1`). `prompt_tokens_details.cached_tokens`
 * (or DeepSeek `prompt_cache_hit_tokens`) → `cachedInputTokens`;
 * `completion_tokens_details.reasoning_tokens` → `reasoningTokens`. A missing block or field
 * counts as zero; `totalTokens` defaults to input + output.
 */
export function convertChatUsage(usage: ChatUsageWire | null | undefined): Usage {
  const inputTokens = num(usage?.prompt_tokens);
  const outputTokens = num(usage?.completion_tokens);
  return {
    requests: 1,
    inputTokens,
    outputTokens,
    totalTokens: usage?.total_tokens == null ? inputTokens + outputTokens : num(usage.total_tokens),
    cachedInputTokens: num(
      usage?.prompt_tokens_details?.cached_tokens ?? usage?.prompt_cache_hit_tokens,
    ),
    cacheCreationInputTokens: 0,
    reasoningTokens: num(usage?.completion_tokens_details?.reasoning_tokens),
  };
}

/** A finite, non-negative token count; anything else counts as 0. */
function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/**
 * A reasoning item for a Chat Completions `reasoning_content` / `reasoning` text: the text in
 * `summary`, and `provider_data[providerId].reasoning_content` so it can be replayed.
 */
export function chatReasoningItem(text: string, providerId: string): ReasoningItem {
  return {
    type: 'reasoning',
    summary: [{ type: 'summary_text', text }],
    provider_data: { [providerId]: { reasoning_content: text } },
  };
}

/** An assistant message item: `output_text` for the text, a `refusal` part for a refusal. */
export function chatMessageItem(
  text: string | undefined,
  refusal: string | undefined,
  incomplete: boolean,
): MessageItem | undefined {
  const content: MessageItem['content'] = [];
  if (text) content.push({ type: 'output_text', text, annotations: [] });
  if (refusal) content.push({ type: 'refusal', refusal });
  if (content.length === 0) return undefined;
  return {
    type: 'message',
    role: 'assistant',
    content,
    status: incomplete ? 'incomplete' : 'completed',
  };
}

/**
 * A function call item from a Chat Completions tool call. `call_id` is the tool call id (or
 * `fallbackId` when the server sent none); empty arguments become `"{}"`, arguments given as a
 * JSON object are serialized. A tool call's `extra_content` (Gemini's thought signature) is kept
 * in `provider_data[providerId].extra_content`, to be sent back with the call.
 */
export function chatFunctionCallItem(
  call: { id?: unknown; name?: unknown; arguments?: unknown; extra_content?: unknown },
  fallbackId: string,
  providerId: string,
): FunctionCallItem {
  const args = argumentsText(call.arguments);
  const item: FunctionCallItem = {
    type: 'function_call',
    call_id: nonEmptyString(call.id) ?? fallbackId,
    name: typeof call.name === 'string' ? call.name : '',
    arguments: args === '' ? '{}' : args,
    status: 'completed',
  };
  if (isRecord(call.extra_content))
    item.provider_data = { [providerId]: { extra_content: call.extra_content } };
  return item;
}

/**
 * Makes the `call_id`s of one response unique: a repeated id gets `_2`, `_3`, … (some servers
 * send two different calls under one id; two tool outputs with one id cannot be told apart).
 */
export function uniqueCallIds(items: FunctionCallItem[]): FunctionCallItem[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const count = (seen.get(item.call_id) ?? 0) + 1;
    seen.set(item.call_id, count);
    return count === 1 ? item : { ...item, call_id: `${item.call_id}_${count}` };
  });
}

/** `value` when it is a non-empty string, else `undefined`. */
export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

const isRecord = (value: unknown): value is Record<string, any> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A reasoning text from a message or delta: DeepSeek `reasoning_content`, Groq / vLLM
 * `reasoning`, or Mistral's `thinking` parts inside a `content` list
 * (`[{ type: 'thinking', thinking: [{ type: 'text', text }] }]`, magistral models).
 */
export function reasoningTextOf(message: unknown): string | undefined {
  const m = message as
    | { reasoning_content?: unknown; reasoning?: unknown; content?: unknown }
    | null
    | undefined;
  if (typeof m?.reasoning_content === 'string') return m.reasoning_content;
  if (typeof m?.reasoning === 'string') return m.reasoning;
  if (!Array.isArray(m?.content)) return undefined;
  let text: string | undefined;
  for (const part of m.content as unknown[]) {
    if (!isRecord(part) || part.type !== 'thinking') continue;
    const thinking = part.thinking;
    const piece =
      typeof thinking === 'string'
        ? thinking
        : Array.isArray(thinking)
          ? thinking.map((t) => (isRecord(t) && typeof t.text === 'string' ? t.text : '')).join('')
          : '';
    text = (text ?? '') + piece;
  }
  return text;
}

/**
 * Text of a message `content`: a string, or the `text` of the parts of a list (some servers
 * send lists; Mistral's `thinking` parts are reasoning, not text, and are skipped).
 */
export function contentTextOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((p) =>
        isRecord(p) && p.type !== 'thinking' && typeof p.text === 'string' ? p.text : '',
      )
      .join('');
  return undefined;
}

/**
 * Raises `ModelBehaviorError` when the output stopped at the token limit inside a tool call
 * (its arguments are cut and cannot be trusted).
 */
export function assertNotCutInToolCall(
  finishReason: string | null | undefined,
  hasToolCalls: boolean,
  providerId: string,
): void {
  if (finishReason === 'length' && hasToolCalls) {
    throw new ModelBehaviorError(
      `The ${providerId} model hit the output token limit inside a tool call (finish_reason "length"); its arguments are incomplete. Raise modelSettings.maxOutputTokens.`,
    );
  }
}

/**
 * Converts a non-streamed `chat.completion` body. Output order: reasoning item (when the message
 * has reasoning), assistant message (text and/or refusal; none when empty), function calls in
 * the order given (ids made unique, see {@link uniqueCallIds}). An empty `id` / `model` is
 * reported as absent.
 * @throws ModelCallError for a body that is not a JSON object (an HTML page from a proxy or a
 *   wrong `baseURL`) or a 200 body that carries `{ error }`; ModelBehaviorError for a body
 *   without choices or a tool call cut by the token limit.
 */
export function convertFromChatOutput(
  completion: unknown,
  providerId: string,
  url?: string,
): ModelResponse {
  const at = url ? ` at ${url}` : '';
  if (!isRecord(completion)) {
    throw new ModelCallError(
      `${providerId} (Chat Completions)${at} answered with a body that is not a JSON object (${bodySnippet(completion)}). Check baseURL: it must point at the API (up to, not including, /chat/completions), not at a web page or proxy login.`,
      { code: 'invalid_response' },
    );
  }
  const body = completion as {
    id?: unknown;
    model?: unknown;
    choices?: unknown;
    usage?: ChatUsageWire | null;
    x_groq?: { usage?: ChatUsageWire };
    error?: { message?: string; code?: string; type?: string };
  };
  if (isRecord(body.error) && !body.choices) {
    const code = nonEmptyString(body.error.code) ?? nonEmptyString(body.error.type);
    throw new ModelCallError(
      `${providerId} (Chat Completions)${at} answered with an error: ${typeof body.error.message === 'string' ? body.error.message : JSON.stringify(body.error)}`,
      { code },
    );
  }
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
  if (!isRecord(choice) || !isRecord(choice.message)) {
    throw new ModelBehaviorError(
      `${providerId} (Chat Completions)${at} returned a response without choices; nothing to use. Check the endpoint and model.`,
    );
  }
  const message = choice.message;
  const finishReason = typeof choice.finish_reason === 'string' ? choice.finish_reason : undefined;
  const toolCalls: unknown[] = Array.isArray(message.tool_calls)
    ? message.tool_calls.filter(isRecord)
    : [];
  assertNotCutInToolCall(finishReason, toolCalls.length > 0, providerId);
  const output: ModelResponse['output'] = [];
  const reasoning = reasoningTextOf(message);
  if (reasoning) output.push(chatReasoningItem(reasoning, providerId));
  const incomplete = finishReason === 'length' || finishReason === 'content_filter';
  const item = chatMessageItem(
    contentTextOf(message.content),
    typeof message.refusal === 'string' ? message.refusal : undefined,
    incomplete,
  );
  if (item) output.push(item);
  const responseId = nonEmptyString(body.id);
  const calls = (toolCalls as Record<string, any>[]).map((call, index) => {
    if (call.type !== undefined && call.type !== 'function') {
      throw new ModelBehaviorError(
        `${providerId} returned a "${String(call.type)}" tool call; only function tools are sent by Baton.`,
        { toolName: typeof call.custom?.name === 'string' ? call.custom.name : undefined },
      );
    }
    const fn = isRecord(call.function) ? call.function : {};
    return chatFunctionCallItem(
      { id: call.id, name: fn.name, arguments: fn.arguments, extra_content: call.extra_content },
      `${responseId ?? 'chat'}_call_${index}`,
      providerId,
    );
  });
  output.push(...uniqueCallIds(calls));
  const usage = isRecord(body.usage)
    ? body.usage
    : isRecord(body.x_groq) && isRecord(body.x_groq.usage)
      ? body.x_groq.usage
      : undefined;
  return {
    output,
    usage: convertChatUsage(usage),
    responseId,
    modelName: nonEmptyString(body.model),
  };
}

/** The start of a body that is not JSON, for error messages. */
export function bodySnippet(body: unknown): string {
  if (typeof body === 'string') {
    const text = body.trim().replace(/\s+/g, ' ');
    return text === '' ? 'an empty body' : `it starts with ${JSON.stringify(text.slice(0, 80))}`;
  }
  if (body === undefined) return 'an empty body';
  return `got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}`;
}
