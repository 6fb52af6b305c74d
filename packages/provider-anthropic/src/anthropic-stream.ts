/**
 * Anthropic Messages streaming events (already parsed from SSE by `@anthropic-ai/sdk`) → kernel
 * `ModelStreamEvent`s. Event shapes: https://docs.anthropic.com/en/docs/build-with-claude/streaming.
 */
import type { Item, ModelResponse, ModelStreamEvent } from '@baton/kernel';
import {
  type AnthropicBlock,
  type AnthropicMessageLike,
  blockToItem,
  convertFromAnthropicOutput,
  textBlocksToMessage,
} from './convert-from-anthropic-output.js';
import { ANTHROPIC_PROVIDER_ID } from './convert-to-anthropic-input.js';

/** What {@link anthropicStreamEvents} returns once `message_stop` arrived. */
export interface AnthropicStreamResult {
  /** The message accumulated from the events (same shape as a non-streamed response body). */
  message: AnthropicMessageLike;
  /** `convertFromAnthropicOutput(message)`: the authoritative items and usage. */
  response: ModelResponse;
}

/** Options of {@link anthropicStreamEvents}. */
export interface AnthropicStreamOptions {
  /** Added to every `outputIndex` (items already produced by earlier calls of the same turn). Default 0. */
  outputIndexBase?: number;
  /** Emit `response_started` at `message_start`. Default true. */
  emitStarted?: boolean;
}

type Event = { type: string; [field: string]: any };
type Accumulating = AnthropicBlock & { partial_json?: string };

/**
 * Converts one stream. Emits `raw` for every event; `response_started` at `message_start`;
 * `output_item_added` when a block starts (consecutive `text` blocks share one assistant
 * message, as in {@link convertFromAnthropicOutput}); `text_delta`, `reasoning_delta`
 * (non-empty `thinking_delta`) and `function_call_arguments_delta` (`input_json_delta` of a
 * `tool_use`); `output_item_done` when a block (or the text run) ends. `signature_delta` and
 * `citations_delta` only update the accumulated block. A tool block's `input` is built only from
 * the concatenated `partial_json` (empty means `{}`). It does not emit `response_done`: the
 * caller does, with the returned response. Returns `undefined` if the events ended before
 * `message_stop`.
 *
 * @throws ModelBehaviorError when the message stopped at `max_tokens` inside a tool call.
 */
export async function* anthropicStreamEvents(
  events: AsyncIterable<unknown>,
  options: AnthropicStreamOptions = {},
): AsyncGenerator<ModelStreamEvent, AnthropicStreamResult | undefined> {
  const base = options.outputIndexBase ?? 0;
  const message: AnthropicMessageLike = { id: '', content: [], stop_reason: null, usage: {} };
  const outputIndexOf = new Map<number, number>();
  let nextIndex = base;
  let textRun: { outputIndex: number; blocks: AnthropicBlock[] } | undefined;

  for await (const raw of events) {
    const ev = raw as Event;
    yield { type: 'raw', providerId: ANTHROPIC_PROVIDER_ID, event: ev };
    switch (ev.type) {
      case 'message_start': {
        message.id = ev.message?.id ?? '';
        message.model = ev.message?.model;
        message.usage = { ...(ev.message?.usage ?? {}) };
        if (options.emitStarted !== false)
          yield { type: 'response_started', responseId: message.id };
        break;
      }
      case 'content_block_start': {
        const block: Accumulating = { ...(ev.content_block as AnthropicBlock) };
        message.content[ev.index] = block;
        if (block.type === 'text') {
          if (!textRun) {
            textRun = { outputIndex: nextIndex++, blocks: [] };
            const item: Item = {
              type: 'message',
              role: 'assistant',
              content: [],
              status: 'in_progress',
            };
            yield { type: 'output_item_added', item, outputIndex: textRun.outputIndex };
          }
          textRun.blocks.push(block);
          if (typeof block.text === 'string' && block.text !== '')
            yield { type: 'text_delta', delta: block.text, outputIndex: textRun.outputIndex };
          break;
        }
        if (textRun) {
          yield {
            type: 'output_item_done',
            item: textBlocksToMessage(textRun.blocks),
            outputIndex: textRun.outputIndex,
          };
          textRun = undefined;
        }
        const outputIndex = nextIndex++;
        outputIndexOf.set(ev.index, outputIndex);
        if (block.type === 'tool_use' || block.type === 'server_tool_use') block.partial_json = '';
        yield { type: 'output_item_added', item: startedItem(block), outputIndex };
        break;
      }
      case 'content_block_delta': {
        const block = message.content[ev.index] as Accumulating | undefined;
        if (!block) break;
        const d = ev.delta ?? {};
        if (d.type === 'text_delta') {
          block.text = `${block.text ?? ''}${d.text}`;
          if (d.text !== '')
            yield { type: 'text_delta', delta: d.text, outputIndex: textRun?.outputIndex };
        } else if (d.type === 'input_json_delta') {
          block.partial_json = `${block.partial_json ?? ''}${d.partial_json}`;
          if (block.type === 'tool_use' && d.partial_json !== '') {
            yield {
              type: 'function_call_arguments_delta',
              delta: d.partial_json,
              callId: String(block.id),
              outputIndex: outputIndexOf.get(ev.index),
            };
          }
        } else if (d.type === 'thinking_delta') {
          block.thinking = `${block.thinking ?? ''}${d.thinking}`;
          if (d.thinking !== '')
            yield {
              type: 'reasoning_delta',
              delta: d.thinking,
              outputIndex: outputIndexOf.get(ev.index),
            };
        } else if (d.type === 'signature_delta') {
          block.signature = `${typeof block.signature === 'string' ? block.signature : ''}${d.signature}`;
        } else if (d.type === 'citations_delta') {
          block.citations = [
            ...(Array.isArray(block.citations) ? block.citations : []),
            d.citation,
          ];
        }
        break;
      }
      case 'content_block_stop': {
        const block = message.content[ev.index] as Accumulating | undefined;
        if (!block || block.type === 'text') break;
        finishToolInput(block);
        yield {
          type: 'output_item_done',
          item: blockToItem(block),
          outputIndex: outputIndexOf.get(ev.index),
        };
        break;
      }
      case 'message_delta': {
        if (ev.delta?.stop_reason !== undefined) message.stop_reason = ev.delta.stop_reason;
        if (ev.delta?.stop_details !== undefined) message.stop_details = ev.delta.stop_details;
        for (const [key, value] of Object.entries(ev.usage ?? {})) {
          if (value !== null && value !== undefined)
            (message.usage as Record<string, unknown>)[key] = value;
        }
        break;
      }
      case 'message_stop': {
        message.content = message.content.filter((b) => b !== undefined);
        for (const block of message.content) if (block.type !== 'text') finishToolInput(block);
        const response = convertFromAnthropicOutput(message);
        if (textRun) {
          const item =
            response.output[textRun.outputIndex - base] ?? textBlocksToMessage(textRun.blocks);
          yield { type: 'output_item_done', item, outputIndex: textRun.outputIndex };
        }
        for (let i = nextIndex - base; i < response.output.length; i++) {
          yield { type: 'output_item_added', item: response.output[i], outputIndex: base + i };
          yield { type: 'output_item_done', item: response.output[i], outputIndex: base + i };
        }
        return { message, response };
      }
      default:
        break;
    }
  }
  return undefined;
}

/** The item announced at `content_block_start` (tool arguments and thinking are still empty). */
function startedItem(block: AnthropicBlock): Item {
  if (block.type === 'tool_use') {
    return {
      type: 'function_call',
      call_id: String(block.id),
      name: String(block.name),
      arguments: '',
      status: 'in_progress',
    };
  }
  if (block.type === 'thinking') return { type: 'reasoning', summary: [], status: 'in_progress' };
  return blockToItem(block);
}

/**
 * Sets a tool block's `input` from its concatenated `partial_json` (empty → `{}`). Invalid JSON
 * (a stream cut by `max_tokens`) leaves `input: {}` and keeps `partial_json` for the error text.
 */
function finishToolInput(block: Accumulating): void {
  if (block.partial_json === undefined) return;
  const json = block.partial_json;
  try {
    block.input = json.trim() === '' ? {} : JSON.parse(json);
    delete block.partial_json;
  } catch {
    block.input = {};
  }
}
