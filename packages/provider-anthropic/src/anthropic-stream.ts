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
/**
 * A block being built. Its `input_json_delta` text is kept beside it (`AnthropicStreamMapper`'s
 * `json`), not on it: one string field added to blocks of many shapes made every delta a slow
 * property store. `partial_json` is set only when that text is not JSON (see `finishToolInput`).
 */
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
  const mapper = new AnthropicStreamMapper(options);
  const out: ModelStreamEvent[] = [];
  for await (const raw of events) {
    const result = mapper.step(raw, out);
    for (const event of out) yield event;
    out.length = 0;
    if (result) return result;
  }
  return undefined;
}

/**
 * The mapping of {@link anthropicStreamEvents}, one event at a time: `step` pushes the kernel
 * events of one stream event to `out` and returns the result at `message_stop`.
 */
export class AnthropicStreamMapper {
  private readonly base: number;
  private readonly message: AnthropicMessageLike = {
    id: '',
    content: [],
    stop_reason: null,
    usage: {},
  };
  /** Blocks that came whole in `message_start`, then the blocks of block events by wire index. */
  private readonly prepopulated: Accumulating[] = [];
  private readonly blocks = new Map<number, Accumulating>();
  /** The highest wire index so far, and whether the blocks came in ascending index order. */
  private lastIndex = -1;
  private blocksInOrder = true;
  private readonly outputIndexOf = new Map<Accumulating, number>();
  /** The concatenated `input_json_delta`s of each block that had any. */
  private readonly json = new Map<Accumulating, string>();
  private readonly open = new Set<Accumulating>();
  private nextIndex: number;
  private started = false;
  private textRun: { outputIndex: number; blocks: AnthropicBlock[] } | undefined;
  /**
   * The `output_item_done` of the last stopped block, sent when the next block starts or at
   * `message_stop` — then with the final item, which may carry the response's `container`.
   */
  private held: { block: Accumulating; outputIndex?: number } | undefined;

  constructor(private readonly options: AnthropicStreamOptions = {}) {
    this.base = options.outputIndexBase ?? 0;
    this.nextIndex = this.base;
  }

  private flushHeld(out: ModelStreamEvent[], final?: Item): void {
    if (!this.held) return;
    const { block, outputIndex } = this.held;
    this.held = undefined;
    out.push({ type: 'output_item_done', item: final ?? blockToItem(block), outputIndex });
  }

  private closeTextRun(out: ModelStreamEvent[]): void {
    if (!this.textRun) return;
    out.push({
      type: 'output_item_done',
      item: textBlocksToMessage(this.textRun.blocks),
      outputIndex: this.textRun.outputIndex,
    });
    this.textRun = undefined;
  }

  private startBlock(block: Accumulating, out: ModelStreamEvent[]): void {
    this.flushHeld(out);
    if (block.type === 'text') {
      if (!this.textRun) {
        this.textRun = { outputIndex: this.nextIndex++, blocks: [] };
        const item: Item = {
          type: 'message',
          role: 'assistant',
          content: [],
          status: 'in_progress',
        };
        out.push({ type: 'output_item_added', item, outputIndex: this.textRun.outputIndex });
      }
      this.textRun.blocks.push(block);
      if (typeof block.text === 'string' && block.text !== '')
        out.push({ type: 'text_delta', delta: block.text, outputIndex: this.textRun.outputIndex });
      return;
    }
    this.closeTextRun(out);
    const outputIndex = this.nextIndex++;
    this.outputIndexOf.set(block, outputIndex);
    this.open.add(block);
    out.push({ type: 'output_item_added', item: startedItem(block), outputIndex });
  }

  private stopBlock(block: Accumulating, out: ModelStreamEvent[]): void {
    if (!this.open.has(block)) return;
    this.open.delete(block);
    const outputIndex = this.outputIndexOf.get(block);
    const fromDeltas = finishToolInput(block, this.json.get(block));
    // Input given whole at content_block_start: one arguments delta, so deltas add up to it.
    if (
      block.type === 'tool_use' &&
      !fromDeltas &&
      isRecord(block.input) &&
      Object.keys(block.input).length > 0
    )
      out.push({
        type: 'function_call_arguments_delta',
        delta: JSON.stringify(block.input),
        callId: String(block.id),
        outputIndex,
      });
    this.flushHeld(out);
    this.held = { block, outputIndex };
  }

  /**
   * Maps one stream event, pushing kernel events to `out`; returns the result once the event was
   * `message_stop`, else `undefined`.
   * @throws ModelCallError for an event that is not an object or a malformed block event.
   */
  step(raw: unknown, out: ModelStreamEvent[]): AnthropicStreamResult | undefined {
    if (!isRecord(raw))
      throw invalid(
        `an event that is not a JSON object (${(JSON.stringify(raw) ?? 'nothing').slice(0, 100)})`,
      );
    const ev = raw as Event;
    const message = this.message;
    out.push({ type: 'raw', providerId: ANTHROPIC_PROVIDER_ID, event: ev });
    switch (ev.type) {
      case 'content_block_delta': {
        const block = isIndex(ev.index) ? this.blocks.get(ev.index) : undefined;
        const d = isRecord(ev.delta) ? ev.delta : {};
        // A delta for a block that never started would be dropped: the output would lose it.
        if (!block)
          throw invalid(
            `a content_block_delta for index ${JSON.stringify(ev.index) ?? '(none)'} before any content_block_start for it`,
          );
        if (d.type === 'text_delta' && typeof d.text === 'string') {
          block.text = `${typeof block.text === 'string' ? block.text : ''}${d.text}`;
          if (d.text !== '')
            out.push({ type: 'text_delta', delta: d.text, outputIndex: this.textRun?.outputIndex });
        } else if (d.type === 'input_json_delta' && typeof d.partial_json === 'string') {
          this.json.set(block, (this.json.get(block) ?? '') + d.partial_json);
          if (block.type === 'tool_use' && d.partial_json !== '')
            out.push({
              type: 'function_call_arguments_delta',
              delta: d.partial_json,
              callId: String(block.id),
              outputIndex: this.outputIndexOf.get(block),
            });
        } else if (d.type === 'thinking_delta' && typeof d.thinking === 'string') {
          block.thinking = `${typeof block.thinking === 'string' ? block.thinking : ''}${d.thinking}`;
          if (d.thinking !== '')
            out.push({
              type: 'reasoning_delta',
              delta: d.thinking,
              outputIndex: this.outputIndexOf.get(block),
            });
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
      case 'message_start': {
        const m = isRecord(ev.message) ? ev.message : {};
        if (isRecord(m.usage)) message.usage = { ...message.usage, ...m.usage };
        if (this.started) break;
        this.started = true;
        message.id = typeof m.id === 'string' ? m.id : '';
        if (typeof m.model === 'string') message.model = m.model;
        if (m.stop_reason !== undefined) message.stop_reason = m.stop_reason;
        if (m.stop_details !== undefined) message.stop_details = m.stop_details;
        if (isRecord(m.container)) message.container = m.container;
        if (this.options.emitStarted !== false)
          out.push({ type: 'response_started', responseId: message.id || undefined });
        for (const raw of Array.isArray(m.content) ? m.content : []) {
          if (!isRecord(raw) || typeof raw.type !== 'string')
            throw invalid('a message_start content block without a type');
          const block: Accumulating = { ...(raw as AnthropicBlock) };
          this.prepopulated.push(block);
          this.startBlock(block, out);
          this.stopBlock(block, out);
        }
        break;
      }
      case 'content_block_start': {
        if (!isIndex(ev.index))
          throw invalid(`content_block_start with index ${JSON.stringify(ev.index) ?? '(none)'}`);
        if (!isRecord(ev.content_block) || typeof ev.content_block.type !== 'string')
          throw invalid('content_block_start without a content block');
        if (this.blocks.has(ev.index))
          throw invalid(`a second content_block_start for index ${ev.index}`);
        const block: Accumulating = { ...(ev.content_block as AnthropicBlock) };
        // A wire `partial_json` is not ours (ours marks input that is not JSON).
        if (block.partial_json !== undefined) delete block.partial_json;
        this.blocks.set(ev.index, block);
        if (ev.index < this.lastIndex) this.blocksInOrder = false;
        else this.lastIndex = ev.index;
        this.startBlock(block, out);
        break;
      }
      case 'content_block_stop': {
        const block = isIndex(ev.index) ? this.blocks.get(ev.index) : undefined;
        if (block && block.type !== 'text') this.stopBlock(block, out);
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
      case 'message_stop':
        return this.stop(out);
      default:
        break;
    }
    return undefined;
  }

  private stop(out: ModelStreamEvent[]): AnthropicStreamResult {
    const { base, message } = this;
    for (const block of [...this.open]) this.stopBlock(block, out);
    message.content = [
      ...this.prepopulated,
      ...(this.blocksInOrder
        ? this.blocks.values()
        : [...this.blocks.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b)),
    ];
    const response = convertFromAnthropicOutput(message);
    if (this.held) this.flushHeld(out, response.output[(this.held.outputIndex ?? base) - base]);
    if (this.textRun) {
      const item =
        response.output[this.textRun.outputIndex - base] ??
        textBlocksToMessage(this.textRun.blocks);
      out.push({ type: 'output_item_done', item, outputIndex: this.textRun.outputIndex });
      this.textRun = undefined;
    }
    for (let i = this.nextIndex - base; i < response.output.length; i++) {
      out.push({ type: 'output_item_added', item: response.output[i], outputIndex: base + i });
      out.push({ type: 'output_item_done', item: response.output[i], outputIndex: base + i });
    }
    return { message, response };
  }
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
 * Sets a tool block's `input`: from `json`, its concatenated `input_json_delta`s, when they came
 * with any text (invalid JSON — a stream cut by `max_tokens` — leaves `input: {}` and sets
 * `partial_json` to the text, for the error and the call's arguments); else the `input` given at
 * `content_block_start` (or `{}`). Returns whether the input came from deltas.
 */
function finishToolInput(block: Accumulating, json: string | undefined): boolean {
  if (block.type !== 'tool_use' && block.type !== 'server_tool_use') return false;
  if (json === undefined || json.trim() === '') {
    if (!isRecord(block.input)) block.input = {};
    return false;
  }
  try {
    block.input = JSON.parse(json);
  } catch {
    block.input = {};
    block.partial_json = json;
  }
  return true;
}
