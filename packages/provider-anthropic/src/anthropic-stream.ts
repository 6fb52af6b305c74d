/**
 * Anthropic Messages streaming events (already parsed from SSE by `@anthropic-ai/sdk`) → kernel
 * `ModelStreamEvent`s. Event shapes: https://docs.anthropic.com/en/docs/build-with-claude/streaming.
 */
import {
  type Item,
  ModelCallError,
  type ModelResponse,
  type ModelStreamEvent,
} from '@baton/kernel';
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
/** A block being built: `partial_json` holds the `input_json_delta`s, when any came. */
type Accumulating = AnthropicBlock & { partial_json?: string };

const isRecord = (value: unknown): value is Record<string, any> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isIndex = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;

function invalid(what: string): ModelCallError {
  return new ModelCallError(
    `The Anthropic stream carried ${what}; the stream is not usable. Retrying may succeed.`,
    {
      retryable: true,
      code: 'invalid_stream_event',
    },
  );
}

/**
 * Converts one stream. Emits `raw` for every event; `response_started` at the first
 * `message_start`; `output_item_added` when a block starts (consecutive `text` blocks share one
 * assistant message, as in {@link convertFromAnthropicOutput}); `text_delta`, `reasoning_delta`
 * (non-empty `thinking_delta`) and `function_call_arguments_delta` (`input_json_delta` of a
 * `tool_use`); `output_item_done` when a block (or the text run) ends. `signature_delta` and
 * `citations_delta` only update the accumulated block. It does not emit `response_done`: the
 * caller does, with the returned response. Returns `undefined` if the events ended before
 * `message_stop`.
 *
 * As real streams send them:
 * - `message_start` may already hold the answer (programmatic tool calling: `tool_use` blocks,
 *   a `stop_reason`, a `container`, then `message_stop` with no block events): its content, stop
 *   reason, usage and container are read like block events would be;
 * - a `tool_use` block may carry its whole `input` at `content_block_start` with no
 *   `input_json_delta`: that input is kept (and sent as one arguments delta); when deltas come,
 *   they build the input;
 * - a repeated `message_start` (some proxies) only updates usage.
 * Blocks are kept by their wire `index` in a `Map` (an index that is not a non-negative integer
 * is an invalid stream).
 *
 * @throws ModelCallError (`invalid_stream_event`) for an event that is not an object, or a block
 *   event with a bad index or block; ModelBehaviorError when the message stopped at `max_tokens`
 *   inside a tool call.
 */
export async function* anthropicStreamEvents(
  events: AsyncIterable<unknown>,
  options: AnthropicStreamOptions = {},
): AsyncGenerator<ModelStreamEvent, AnthropicStreamResult | undefined> {
  const base = options.outputIndexBase ?? 0;
  const message: AnthropicMessageLike = { id: '', content: [], stop_reason: null, usage: {} };
  /** Blocks that came whole in `message_start`, then the blocks of block events by wire index. */
  const prepopulated: Accumulating[] = [];
  const blocks = new Map<number, Accumulating>();
  const outputIndexOf = new Map<Accumulating, number>();
  const open = new Set<Accumulating>();
  let nextIndex = base;
  let started = false;
  let textRun: { outputIndex: number; blocks: AnthropicBlock[] } | undefined;
  /**
   * The `output_item_done` of the last stopped block, sent when the next block starts or at
   * `message_stop` — then with the final item, which may carry the response's `container`.
   */
  let held: { block: Accumulating; outputIndex?: number } | undefined;

  function* flushHeld(final?: Item): Generator<ModelStreamEvent> {
    if (!held) return;
    const { block, outputIndex } = held;
    held = undefined;
    yield { type: 'output_item_done', item: final ?? blockToItem(block), outputIndex };
  }

  function* closeTextRun(): Generator<ModelStreamEvent> {
    if (!textRun) return;
    yield {
      type: 'output_item_done',
      item: textBlocksToMessage(textRun.blocks),
      outputIndex: textRun.outputIndex,
    };
    textRun = undefined;
  }

  function* startBlock(block: Accumulating): Generator<ModelStreamEvent> {
    yield* flushHeld();
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
      return;
    }
    yield* closeTextRun();
    const outputIndex = nextIndex++;
    outputIndexOf.set(block, outputIndex);
    open.add(block);
    yield { type: 'output_item_added', item: startedItem(block), outputIndex };
  }

  function* stopBlock(block: Accumulating): Generator<ModelStreamEvent> {
    if (!open.has(block)) return;
    open.delete(block);
    const outputIndex = outputIndexOf.get(block);
    const fromDeltas = finishToolInput(block);
    // Input given whole at content_block_start: one arguments delta, so deltas add up to it.
    if (
      block.type === 'tool_use' &&
      !fromDeltas &&
      isRecord(block.input) &&
      Object.keys(block.input).length > 0
    )
      yield {
        type: 'function_call_arguments_delta',
        delta: JSON.stringify(block.input),
        callId: String(block.id),
        outputIndex,
      };
    yield* flushHeld();
    held = { block, outputIndex };
  }

  for await (const raw of events) {
    if (!isRecord(raw))
      throw invalid(
        `an event that is not a JSON object (${(JSON.stringify(raw) ?? 'nothing').slice(0, 100)})`,
      );
    const ev = raw as Event;
    yield { type: 'raw', providerId: ANTHROPIC_PROVIDER_ID, event: ev };
    switch (ev.type) {
      case 'message_start': {
        const m = isRecord(ev.message) ? ev.message : {};
        if (isRecord(m.usage)) message.usage = { ...message.usage, ...m.usage };
        if (started) break;
        started = true;
        message.id = typeof m.id === 'string' ? m.id : '';
        if (typeof m.model === 'string') message.model = m.model;
        if (m.stop_reason !== undefined) message.stop_reason = m.stop_reason;
        if (m.stop_details !== undefined) message.stop_details = m.stop_details;
        if (isRecord(m.container)) message.container = m.container;
        if (options.emitStarted !== false)
          yield { type: 'response_started', responseId: message.id || undefined };
        for (const raw of Array.isArray(m.content) ? m.content : []) {
          if (!isRecord(raw) || typeof raw.type !== 'string')
            throw invalid('a message_start content block without a type');
          const block: Accumulating = { ...(raw as AnthropicBlock) };
          prepopulated.push(block);
          yield* startBlock(block);
          yield* stopBlock(block);
        }
        break;
      }
      case 'content_block_start': {
        if (!isIndex(ev.index))
          throw invalid(`content_block_start with index ${JSON.stringify(ev.index) ?? '(none)'}`);
        if (!isRecord(ev.content_block) || typeof ev.content_block.type !== 'string')
          throw invalid('content_block_start without a content block');
        if (blocks.has(ev.index))
          throw invalid(`a second content_block_start for index ${ev.index}`);
        const block: Accumulating = { ...(ev.content_block as AnthropicBlock) };
        delete block.partial_json;
        blocks.set(ev.index, block);
        yield* startBlock(block);
        break;
      }
      case 'content_block_delta': {
        const block = isIndex(ev.index) ? blocks.get(ev.index) : undefined;
        const d = isRecord(ev.delta) ? ev.delta : {};
        if (!block) break;
        const outputIndex = outputIndexOf.get(block);
        if (d.type === 'text_delta' && typeof d.text === 'string') {
          block.text = `${typeof block.text === 'string' ? block.text : ''}${d.text}`;
          if (d.text !== '')
            yield { type: 'text_delta', delta: d.text, outputIndex: textRun?.outputIndex };
        } else if (d.type === 'input_json_delta' && typeof d.partial_json === 'string') {
          block.partial_json = `${block.partial_json ?? ''}${d.partial_json}`;
          if (block.type === 'tool_use' && d.partial_json !== '')
            yield {
              type: 'function_call_arguments_delta',
              delta: d.partial_json,
              callId: String(block.id),
              outputIndex,
            };
        } else if (d.type === 'thinking_delta' && typeof d.thinking === 'string') {
          block.thinking = `${typeof block.thinking === 'string' ? block.thinking : ''}${d.thinking}`;
          if (d.thinking !== '') yield { type: 'reasoning_delta', delta: d.thinking, outputIndex };
        } else if (d.type === 'signature_delta' && typeof d.signature === 'string') {
          block.signature = `${typeof block.signature === 'string' ? block.signature : ''}${d.signature}`;
        } else if (d.type === 'citations_delta' && isRecord(d.citation)) {
          block.citations = [
            ...(Array.isArray(block.citations) ? block.citations : []),
            d.citation,
          ];
        }
        break;
      }
      case 'content_block_stop': {
        const block = isIndex(ev.index) ? blocks.get(ev.index) : undefined;
        if (block && block.type !== 'text') yield* stopBlock(block);
        break;
      }
      case 'message_delta': {
        const d = isRecord(ev.delta) ? ev.delta : {};
        if (d.stop_reason !== undefined) message.stop_reason = d.stop_reason;
        if (d.stop_details !== undefined) message.stop_details = d.stop_details;
        if (isRecord(d.container)) message.container = d.container;
        for (const [key, value] of Object.entries(isRecord(ev.usage) ? ev.usage : {})) {
          if (value !== null && value !== undefined)
            (message.usage as Record<string, unknown>)[key] = value;
        }
        break;
      }
      case 'message_stop': {
        for (const block of [...open]) yield* stopBlock(block);
        message.content = [
          ...prepopulated,
          ...[...blocks.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b),
        ];
        const response = convertFromAnthropicOutput(message);
        if (held) yield* flushHeld(response.output[(held.outputIndex ?? base) - base]);
        if (textRun) {
          const item =
            response.output[textRun.outputIndex - base] ?? textBlocksToMessage(textRun.blocks);
          yield { type: 'output_item_done', item, outputIndex: textRun.outputIndex };
          textRun = undefined;
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
 * Sets a tool block's `input`: from its concatenated `partial_json` when deltas came with any
 * text (invalid JSON — a stream cut by `max_tokens` — leaves `input: {}` and keeps
 * `partial_json` for the error text); else the `input` given at `content_block_start` (or `{}`).
 * Returns whether the input came from deltas.
 */
function finishToolInput(block: Accumulating): boolean {
  if (block.type !== 'tool_use' && block.type !== 'server_tool_use') return false;
  const json = block.partial_json;
  if (json === undefined || json.trim() === '') {
    delete block.partial_json;
    if (!isRecord(block.input)) block.input = {};
    return false;
  }
  try {
    block.input = JSON.parse(json);
    delete block.partial_json;
  } catch {
    block.input = {};
  }
  return true;
}
