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
  ModelCallError,
  type ModelResponse,
  type OutputTextPart,
  type ReasoningItem,
  type Usage,
} from '@baton/kernel';
import { errorBodyToModelCallError } from './anthropic-errors.js';
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
  /** The code execution container of the response (`{ id, expires_at }`), when one is in use. */
  container?: { id?: unknown; expires_at?: unknown } | null;
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
  const top = isRecord(usage) ? usage : undefined;
  const iterations = Array.isArray(top?.iterations) ? top.iterations.filter(isRecord) : [];
  const parts: AnthropicUsageLike[] = iterations.length > 0 ? iterations : top ? [top] : [];
  let fresh = 0;
  let read = 0;
  let created = 0;
  let output = 0;
  for (const u of parts) {
    fresh += count(u.input_tokens);
    read += count(u.cache_read_input_tokens);
    created += count(u.cache_creation_input_tokens);
    output += count(u.output_tokens);
  }
  const inputTokens = fresh + read + created;
  return {
    requests: 1,
    inputTokens,
    outputTokens: output,
    totalTokens: inputTokens + output,
    cachedInputTokens: read,
    cacheCreationInputTokens: created,
    reasoningTokens: count(
      isRecord(top?.output_tokens_details) ? top.output_tokens_details.thinking_tokens : 0,
    ),
  };
}

/** A finite, non-negative token count; anything else counts as 0. */
function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

const isRecord = (value: unknown): value is Record<string, any> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The start of a body that is not a message, for error messages. */
function bodySnippet(body: unknown): string {
  if (typeof body === 'string') {
    const text = body.trim().replace(/\s+/g, ' ');
    return text === '' ? 'an empty body' : `it starts with ${JSON.stringify(text.slice(0, 80))}`;
  }
  if (body === undefined) return 'an empty body';
  return `got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}`;
}

/**
 * Checks that a body is an Anthropic `Message`: an object whose `content` is a list of blocks
 * (objects with a string `type`). A `{ type: 'error', error }` body (sent with status 200 by some
 * proxies) becomes the `ModelCallError` its error type stands for.
 * @throws ModelCallError (`code: 'invalid_response'`) naming what is wrong.
 */
export function assertAnthropicMessage(
  body: unknown,
  url?: string,
): asserts body is AnthropicMessageLike {
  const at = url ? ` at ${url}` : '';
  if (!isRecord(body)) {
    throw new ModelCallError(
      `Anthropic Messages API${at} answered with a body that is not a JSON object (${bodySnippet(body)}). Check baseURL: it must point at the API (e.g. https://api.anthropic.com), not at a web page or proxy login.`,
      { code: 'invalid_response' },
    );
  }
  if (body.type === 'error' && isRecord(body.error)) throw errorBodyToModelCallError(body, url);
  const bad = !Array.isArray(body.content)
    ? `no content list (content: ${JSON.stringify(body.content) ?? 'missing'})`
    : body.content.findIndex((b: unknown) => !isRecord(b) || typeof b.type !== 'string') >= 0
      ? `content block ${body.content.findIndex((b: unknown) => !isRecord(b) || typeof b.type !== 'string')} is not a block with a type`
      : undefined;
  if (bad) {
    throw new ModelCallError(
      `Anthropic Messages API${at} answered with a message that has ${bad}; it does not follow the Messages API. Check baseURL and any proxy in between.`,
      { code: 'invalid_response' },
    );
  }
}

/**
 * Converts a response to a `ModelResponse`: consecutive `text` blocks become one assistant
 * message (one `output_text` part; `citations` become `annotations` with `start_index` /
 * `end_index` into that text — web results as `url_citation`, others as
 * `{ type: 'anthropic_citation', citation }`); `thinking` / `redacted_thinking` become reasoning
 * items with `provider_data.anthropic = { type, signature }` / `{ type, data }`; `tool_use`
 * becomes a `function_call` (`call_id` = block id, `arguments` = JSON of `input`, or the streamed
 * `partial_json` text as it came when that is not valid JSON); any other
 * block (server tools and their results, compaction, …) becomes a `hosted_tool_call` item whose
 * `provider_data.anthropic` is the block, verbatim, so it round-trips.
 *
 * A `tool_use` block's `caller` (programmatic tool calling) is kept in
 * `provider_data.anthropic.caller`, and the response's `container` on the last item (see
 * `attachContainer`), so both go back with the next request. An empty `id` / `model` is absent.
 *
 * @throws ModelCallError when `message` is not a Messages API message (see
 *   {@link assertAnthropicMessage}); ModelBehaviorError when the response stopped at `max_tokens`
 *   inside a tool call, or a `tool_use` block has no id or name.
 */
export function convertFromAnthropicOutput(
  message: AnthropicMessageLike,
  url?: string,
): ModelResponse {
  assertAnthropicMessage(message, url);
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
  attachContainer(output, message.container);
  const response: ModelResponse = { output, usage: convertAnthropicUsage(message.usage) };
  if (typeof message.id === 'string' && message.id !== '') response.responseId = message.id;
  if (typeof message.model === 'string' && message.model !== '') response.modelName = message.model;
  return response;
}

/**
 * Records the response's code execution container on its last output item
 * (`provider_data.anthropic.container = { id, expires_at }`), so the next request can send
 * `container: id` (programmatic tool calling needs it).
 */
function attachContainer(output: Item[], container: AnthropicMessageLike['container']): void {
  const last = output[output.length - 1] as
    | (Item & { provider_data?: Record<string, unknown> })
    | undefined;
  if (!last || !isRecord(container) || typeof container.id !== 'string' || container.id === '')
    return;
  const data = isRecord(last.provider_data?.[ANTHROPIC_PROVIDER_ID])
    ? last.provider_data[ANTHROPIC_PROVIDER_ID]
    : {};
  const kept: Record<string, unknown> = { id: container.id };
  if (typeof container.expires_at === 'string') kept.expires_at = container.expires_at;
  last.provider_data = {
    ...last.provider_data,
    [ANTHROPIC_PROVIDER_ID]: { ...data, container: kept },
  };
}

/** One assistant message from consecutive `text` blocks (see {@link convertFromAnthropicOutput}). */
export function textBlocksToMessage(blocks: AnthropicBlock[]): MessageItem {
  let text = '';
  const annotations: unknown[] = [];
  for (const block of blocks) {
    const start = text.length;
    text += typeof block.text === 'string' ? block.text : '';
    const citations = Array.isArray(block.citations) ? block.citations.filter(isRecord) : [];
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
      const signature = typeof block.signature === 'string' ? block.signature : undefined;
      const item: ReasoningItem = {
        type: 'reasoning',
        summary: thinking === '' ? [] : [{ type: 'summary_text', text: thinking }],
        provider_data: {
          [ANTHROPIC_PROVIDER_ID]: { type: 'thinking', signature },
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
    case 'tool_use': {
      if (
        typeof block.id !== 'string' ||
        block.id === '' ||
        typeof block.name !== 'string' ||
        block.name === ''
      ) {
        throw new ModelBehaviorError(
          `Anthropic returned a tool_use block without a string id and name (id: ${JSON.stringify(block.id) ?? 'none'}, name: ${JSON.stringify(block.name) ?? 'none'}); the call cannot be run or answered.`,
        );
      }
      const item: FunctionCallItem = {
        type: 'function_call',
        call_id: block.id,
        name: block.name,
        // Streamed input that is not JSON keeps its text (`partial_json`), so the kernel tells the
        // model its arguments are invalid instead of running the tool with `{}`.
        arguments:
          typeof block.partial_json === 'string'
            ? block.partial_json
            : JSON.stringify(isRecord(block.input) ? block.input : {}),
        status: 'completed',
      };
      // Programmatic tool calling: who called the tool (code execution); sent back with the call.
      if (isRecord(block.caller))
        item.provider_data = { [ANTHROPIC_PROVIDER_ID]: { caller: block.caller } };
      return item;
    }
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
