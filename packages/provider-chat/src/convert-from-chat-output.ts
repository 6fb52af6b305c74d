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

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
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
 * `<fallbackId>` when the server sent none); empty arguments become `"{}"`.
 */
export function chatFunctionCallItem(
  call: { id?: string | null; name?: string | null; arguments?: string | null },
  fallbackId: string,
): FunctionCallItem {
  return {
    type: 'function_call',
    call_id: call.id || fallbackId,
    name: call.name ?? '',
    arguments: call.arguments ? call.arguments : '{}',
    status: 'completed',
  };
}

/** A reasoning text from a message or delta: DeepSeek `reasoning_content` or Groq `reasoning`. */
export function reasoningTextOf(message: unknown): string | undefined {
  const m = message as { reasoning_content?: unknown; reasoning?: unknown } | null | undefined;
  if (typeof m?.reasoning_content === 'string') return m.reasoning_content;
  if (typeof m?.reasoning === 'string') return m.reasoning;
  return undefined;
}

/** Text of a message `content` (a string, or a list of text parts on some servers). */
export function contentTextOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
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
 * the order given.
 * @throws ModelCallError for a 200 body that carries `{ error }`; ModelBehaviorError for a body
 *   without choices or a tool call cut by the token limit.
 */
export function convertFromChatOutput(completion: unknown, providerId: string): ModelResponse {
  const body = completion as {
    id?: string;
    model?: string;
    choices?: { message?: any; finish_reason?: string | null }[];
    usage?: ChatUsageWire | null;
    x_groq?: { usage?: ChatUsageWire };
    error?: { message?: string; code?: string; type?: string };
  };
  if (body?.error && !body.choices) {
    throw new ModelCallError(
      `${providerId} (Chat Completions) answered with an error: ${body.error.message ?? JSON.stringify(body.error)}`,
      {
        code: body.error.code ?? body.error.type,
      },
    );
  }
  const choice = body?.choices?.[0];
  if (!choice?.message) {
    throw new ModelBehaviorError(
      `${providerId} (Chat Completions) returned a response without choices; nothing to use. Check the endpoint and model.`,
    );
  }
  const message = choice.message;
  const toolCalls: any[] = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  assertNotCutInToolCall(choice.finish_reason, toolCalls.length > 0, providerId);
  const output: ModelResponse['output'] = [];
  const reasoning = reasoningTextOf(message);
  if (reasoning) output.push(chatReasoningItem(reasoning, providerId));
  const incomplete = choice.finish_reason === 'length' || choice.finish_reason === 'content_filter';
  const item = chatMessageItem(
    contentTextOf(message.content),
    message.refusal ?? undefined,
    incomplete,
  );
  if (item) output.push(item);
  toolCalls.forEach((call, index) => {
    if (call.type !== undefined && call.type !== 'function') {
      throw new ModelBehaviorError(
        `${providerId} returned a "${call.type}" tool call; only function tools are sent by Baton.`,
        { toolName: call.custom?.name },
      );
    }
    output.push(
      chatFunctionCallItem(
        { id: call.id, name: call.function?.name, arguments: call.function?.arguments },
        `${body.id ?? 'chat'}_call_${index}`,
      ),
    );
  });
  return {
    output,
    usage: convertChatUsage(body.usage ?? body.x_groq?.usage),
    responseId: body.id,
    modelName: body.model,
  };
}
