/**
 * Anthropic Messages API response (`Message`) → kernel items, usage and stop-reason handling.
 * Source of the input format: https://docs.anthropic.com/en/api/messages (response body).
 */
import {
  type FunctionCallItem,
  type HostedItem,
  type Item,
  type MessageItem,
  ModelBehaviorError,
  type ModelResponse,
  type OutputTextPart,
  type ReasoningItem,
  type Usage,
} from '@baton/kernel';
import { ANTHROPIC_PROVIDER_ID } from './convert-to-anthropic-input.js';

/** Any content block of a response, known to the SDK or not (server tools, compaction, …). */
export type AnthropicBlock = { type: string; [field: string]: unknown };

/** The fields of an Anthropic `Message` this package reads. */
export interface AnthropicMessageLike {
  id: string;
  model?: string;
  content: AnthropicBlock[];
  stop_reason?: string | null;
  stop_details?: { category?: string | null; explanation?: string | null } | null;
  usage?: AnthropicUsageLike | null;
}

/** Anthropic `usage` (all counts are tokens; `null` and missing mean 0). */
export interface AnthropicUsageLike {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
  /** Per-iteration usage when server-side compaction ran (the top level is the last iteration only). */
  iterations?: AnthropicUsageLike[] | null;
}

/**
 * Maps Anthropic usage to kernel usage for one request (`requests: 1`). `inputTokens` is the
 * whole prompt: `input_tokens + cache_read_input_tokens + cache_creation_input_tokens` (so that,
 * as with OpenAI, `cachedInputTokens` is a part of `inputTokens`); `cachedInputTokens` =
 * `cache_read_input_tokens`; `cacheCreationInputTokens` = `cache_creation_input_tokens`;
 * `reasoningTokens` = `output_tokens_details.thinking_tokens`. When `iterations` is present
 * (server-side compaction), the iterations are summed, as Anthropic bills them.
 */
export function convertAnthropicUsage(usage: AnthropicUsageLike | null | undefined): Usage {
  const parts =
    usage?.iterations && usage.iterations.length > 0 ? usage.iterations : usage ? [usage] : [];
  let fresh = 0;
  let read = 0;
  let created = 0;
  let output = 0;
  for (const u of parts) {
    fresh += u.input_tokens ?? 0;
    read += u.cache_read_input_tokens ?? 0;
    created += u.cache_creation_input_tokens ?? 0;
    output += u.output_tokens ?? 0;
  }
  const inputTokens = fresh + read + created;
  return {
    requests: 1,
    inputTokens,
    outputTokens: output,
    totalTokens: inputTokens + output,
    cachedInputTokens: read,
    cacheCreationInputTokens: created,
    reasoningTokens: usage?.output_tokens_details?.thinking_tokens ?? 0,
  };
}

/**
 * Converts a response to a `ModelResponse`: consecutive `text` blocks become one assistant
 * message (one `output_text` part; `citations` become `annotations` with `start_index` /
 * `end_index` into that text — web results as `url_citation`, others as
 * `{ type: 'anthropic_citation', citation }`); `thinking` / `redacted_thinking` become reasoning
 * items with `provider_data.anthropic = { type, signature }` / `{ type, data }`; `tool_use`
 * becomes a `function_call` (`call_id` = block id, `arguments` = JSON of `input`); any other
 * block (server tools and their results, compaction, …) becomes a `hosted_tool_call` item whose
 * `provider_data.anthropic` is the block, verbatim, so it round-trips.
 *
 * @throws ModelBehaviorError when the response stopped at `max_tokens` inside a tool call.
 */
export function convertFromAnthropicOutput(message: AnthropicMessageLike): ModelResponse {
  const output: Item[] = [];
  let text: AnthropicBlock[] = [];
  for (const block of message.content) {
    if (block.type === 'text') {
      text.push(block);
      continue;
    }
    if (text.length > 0) output.push(textBlocksToMessage(text));
    text = [];
    output.push(blockToItem(block));
  }
  if (text.length > 0) output.push(textBlocksToMessage(text));
  applyStopReason(output, message);
  const response: ModelResponse = {
    output,
    usage: convertAnthropicUsage(message.usage),
    responseId: message.id,
  };
  if (message.model) response.modelName = message.model;
  return response;
}

/** One assistant message from consecutive `text` blocks (see {@link convertFromAnthropicOutput}). */
export function textBlocksToMessage(blocks: AnthropicBlock[]): MessageItem {
  let text = '';
  const annotations: unknown[] = [];
  for (const block of blocks) {
    const start = text.length;
    text += typeof block.text === 'string' ? block.text : '';
    const citations = Array.isArray(block.citations) ? block.citations : [];
    for (const c of citations as Record<string, unknown>[])
      annotations.push(toAnnotation(c, start, text.length));
  }
  const part: OutputTextPart = { type: 'output_text', text };
  if (annotations.length > 0) part.annotations = annotations;
  return { type: 'message', role: 'assistant', content: [part], status: 'completed' };
}

function toAnnotation(citation: Record<string, unknown>, start: number, end: number): unknown {
  if (citation.type === 'web_search_result_location') {
    return {
      type: 'url_citation',
      url: citation.url,
      title: citation.title,
      start_index: start,
      end_index: end,
    };
  }
  return { type: 'anthropic_citation', start_index: start, end_index: end, citation };
}

/** The kernel item for one non-text block (see {@link convertFromAnthropicOutput}). */
export function blockToItem(block: AnthropicBlock): Item {
  switch (block.type) {
    case 'thinking': {
      const thinking = typeof block.thinking === 'string' ? block.thinking : '';
      const item: ReasoningItem = {
        type: 'reasoning',
        summary: thinking === '' ? [] : [{ type: 'summary_text', text: thinking }],
        provider_data: {
          [ANTHROPIC_PROVIDER_ID]: { type: 'thinking', signature: block.signature },
        },
      };
      return item;
    }
    case 'redacted_thinking':
      return {
        type: 'reasoning',
        summary: [],
        provider_data: { [ANTHROPIC_PROVIDER_ID]: { type: 'redacted_thinking', data: block.data } },
      } satisfies ReasoningItem;
    case 'tool_use':
      return {
        type: 'function_call',
        call_id: String(block.id),
        name: String(block.name),
        arguments: JSON.stringify(block.input ?? {}),
        status: 'completed',
      } satisfies FunctionCallItem;
    default: {
      const item: HostedItem = {
        type: 'hosted_tool_call',
        name: typeof block.name === 'string' ? block.name : block.type,
      };
      if (typeof block.id === 'string') item.id = block.id;
      item.provider_data = { [ANTHROPIC_PROVIDER_ID]: block };
      return item;
    }
  }
}

/**
 * Applies the stop reason to the converted output, in place:
 * `max_tokens` / `model_context_window_exceeded` → the last message is marked `incomplete`, or
 * a `ModelBehaviorError` if the response ended inside a tool call; `refusal` → a `refusal` part
 * (`stop_details.explanation`, or a text naming the category) on the last assistant message (a
 * new message if there is none); `end_turn`, `stop_sequence`,
 * `tool_use`, `pause_turn` → nothing to change.
 */
export function applyStopReason(output: Item[], message: AnthropicMessageLike): void {
  const reason = message.stop_reason;
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') {
    const last = message.content[message.content.length - 1];
    if (last && (last.type === 'tool_use' || last.type === 'server_tool_use')) {
      const name = String(last.name);
      throw new ModelBehaviorError(
        `Anthropic stopped at ${reason} in the middle of tool call "${name}", so its arguments are incomplete. Raise modelSettings.maxOutputTokens (Anthropic max_tokens) or ask for smaller tool inputs.`,
        {
          toolName: name,
          rawText:
            typeof last.partial_json === 'string'
              ? last.partial_json
              : JSON.stringify(last.input ?? {}),
        },
      );
    }
    const msg = lastAssistantMessage(output);
    if (msg) msg.status = 'incomplete';
    return;
  }
  if (reason === 'refusal') {
    const { category, explanation } = message.stop_details ?? {};
    const refusal = explanation
      ? explanation
      : `Claude declined to respond (stop_reason "refusal"${category ? `, category "${category}"` : ''}).`;
    const msg = output[output.length - 1];
    if (msg?.type === 'message' && msg.role === 'assistant' && Array.isArray(msg.content)) {
      msg.content.push({ type: 'refusal', refusal });
    } else {
      output.push({
        type: 'message',
        role: 'assistant',
        content: [{ type: 'refusal', refusal }],
        status: 'completed',
      });
    }
  }
}

function lastAssistantMessage(output: Item[]): MessageItem | undefined {
  for (let i = output.length - 1; i >= 0; i--) {
    const it = output[i];
    if (it.type === 'message' && it.role === 'assistant') return it;
  }
  return undefined;
}
