/**
 * OpenAI Responses stream events (as parsed by the `openai` SDK) → Baton `ModelStreamEvent`s.
 * Source of the event names: https://platform.openai.com/docs/api-reference/responses-streaming
 */
import { ModelCallError, type ModelStreamEvent } from '@baton/kernel';
import {
  fromResponsesOutputItem,
  fromResponsesResponse,
  type ResponsesResponseLike,
} from './convert-from-openai-output.js';
import { readFailure, streamFailure } from './openai-errors.js';
import { assertValidOutputItems } from './output-check.js';
import { isIndex, OutputSlots } from './responses-output-slots.js';

/** Options of {@link toModelStreamEvents}. */
export interface ToModelStreamEventsOptions {
  /** The caller's abort signal: once aborted, its reason is thrown instead of a stream error. */
  signal?: AbortSignal;
  /** The request URL, named in error messages. */
  url?: string;
}

const isRecord = (value: unknown): value is Record<string, any> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmpty = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * Maps a Responses event stream to kernel stream events. Every event is first passed through as
 * `{ type: 'raw', providerId: 'openai', event }`, then mapped:
 *
 * | Responses event | kernel event |
 * | --- | --- |
 * | `response.created` | `response_started` (`responseId`) |
 * | `response.output_item.added` / `.done` | `output_item_added` / `output_item_done` (`outputIndex`) |
 * | `response.output_text.delta` | `text_delta` |
 * | `response.function_call_arguments.delta` | `function_call_arguments_delta` (`callId` of the item at that output index) |
 * | `response.reasoning_summary_text.delta`, `response.reasoning_text.delta` | `reasoning_delta` |
 * | `response.completed` | `response_done` with the full response (the last event) |
 * | `response.incomplete` | `response_done` when the output is usable, else `ModelBehaviorError` |
 * | `response.failed`, `error` | `ModelCallError` with the server's message and code |
 *
 * Other events (annotations, hosted-tool progress, refusal deltas, …) appear only as `raw`.
 *
 * Events are correlated by `output_index` (plus `content_index` / `summary_index`), never by
 * `item_id`: proxies that rotate item ids on every event still get deltas tagged with the id and
 * call id of the item added at that index. When `response.completed` carries no output, the
 * output is rebuilt from the `output_item.done` items, else from the added items and their deltas.
 * `response_started` carries the first non-empty response id (at the latest it is sent before the
 * first output); `responseId` / `modelName` missing from the terminal event are taken from the
 * earlier events. Output items the kernel's schema rejects are a `ModelBehaviorError`.
 *
 * A stream that breaks (connection reset, body cut), carries an event that is not a JSON object
 * (`data: null`) or ends without a terminal event throws `ModelCallError` (`code:
 * 'connection_error'` / `'invalid_stream_event'` / `'stream_incomplete'`), `retryable` only when
 * no output was emitted yet. "Output" means an `output_item_added` or a delta; the
 * `response_started` and raw lifecycle events carry none.
 */
export async function* toModelStreamEvents(
  events: AsyncIterable<unknown>,
  options: ToModelStreamEventsOptions = {},
): AsyncGenerator<ModelStreamEvent> {
  const iterator = events[Symbol.asyncIterator]();
  const slots = new OutputSlots();
  let outputEmitted = false;
  let iteratorClosed = false;
  let started = false;
  let seenId: string | undefined;
  let seenModel: string | undefined;
  const at = options.url ? ` from ${options.url}` : '';
  const startEvent = (): ModelStreamEvent => {
    started = true;
    return { type: 'response_started', responseId: seenId };
  };
  try {
    for (let count = 0; ; count++) {
      let next: IteratorResult<unknown>;
      try {
        next = await iterator.next();
      } catch (error) {
        iteratorClosed = true;
        if (options.signal?.aborted) throw options.signal.reason ?? error;
        throw readFailure(error, { outputEmitted, url: options.url });
      }
      if (next.done) {
        iteratorClosed = true;
        break;
      }
      const event = next.value;
      if (!isRecord(event)) {
        throw new ModelCallError(
          `OpenAI Responses API sent a stream event that is not a JSON object (${(JSON.stringify(event) ?? 'nothing').slice(0, 100)})${at}. ${outputEmitted ? 'Output had already been streamed; the partial response is not replayed.' : 'Retrying may succeed.'}`,
          { retryable: !outputEmitted, code: 'invalid_stream_event' },
        );
      }
      yield { type: 'raw', providerId: 'openai', event };
      const response = isRecord(event.response)
        ? (event.response as ResponsesResponseLike & Record<string, unknown>)
        : undefined;
      seenId ??= nonEmpty(response?.id);
      seenModel ??= nonEmpty(response?.model);
      if (!started && seenId !== undefined) yield startEvent();
      const output = (item: ModelStreamEvent): ModelStreamEvent[] => {
        outputEmitted = true;
        return started ? [item] : [startEvent(), item];
      };
      if (
        (event.type === 'response.output_item.added' ||
          event.type === 'response.output_item.done') &&
        !(isRecord(event.item) && typeof event.item.type === 'string')
      ) {
        throw new ModelCallError(
          `OpenAI Responses API sent ${event.type} without an item (an object with a type)${at}. ${outputEmitted ? 'Output had already been streamed; the partial response is not replayed.' : 'Retrying may succeed.'}`,
          { retryable: !outputEmitted, code: 'invalid_stream_event' },
        );
      }
      switch (event.type) {
        case 'response.output_item.added': {
          const item = fromResponsesOutputItem(event.item);
          const { index, slot } = slots.slotOf(event.output_index, true);
          slot.added = item;
          yield* output({ type: 'output_item_added', item, outputIndex: index });
          break;
        }
        case 'response.output_item.done': {
          const item = fromResponsesOutputItem(event.item);
          const { index, slot } = slots.slotOf(event.output_index);
          slot.done = item;
          yield* output({ type: 'output_item_done', item, outputIndex: index });
          break;
        }
        case 'response.output_text.delta':
        case 'response.refusal.delta': {
          const delta = typeof event.delta === 'string' ? event.delta : '';
          const { index, slot } = slots.slotOf(event.output_index);
          const part = isIndex(event.content_index) ? event.content_index : 0;
          const map = event.type === 'response.refusal.delta' ? slot.refusal : slot.text;
          map.set(part, (map.get(part) ?? '') + delta);
          if (event.type === 'response.refusal.delta') break;
          yield* output({
            type: 'text_delta',
            delta,
            itemId: OutputSlots.itemId(slot) ?? nonEmpty(event.item_id),
            outputIndex: index,
          });
          break;
        }
        case 'response.function_call_arguments.delta': {
          const delta = typeof event.delta === 'string' ? event.delta : '';
          const { index, slot } = slots.slotOf(event.output_index);
          slot.args += delta;
          yield* output({
            type: 'function_call_arguments_delta',
            delta,
            callId: OutputSlots.callId(slot),
            itemId: OutputSlots.itemId(slot) ?? nonEmpty(event.item_id),
            outputIndex: index,
          });
          break;
        }
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta': {
          const delta = typeof event.delta === 'string' ? event.delta : '';
          const { index, slot } = slots.slotOf(event.output_index);
          if (event.type === 'response.reasoning_summary_text.delta') {
            const part = isIndex(event.summary_index) ? event.summary_index : 0;
            slot.summary.set(part, (slot.summary.get(part) ?? '') + delta);
          }
          yield* output({
            type: 'reasoning_delta',
            delta,
            itemId: OutputSlots.itemId(slot) ?? nonEmpty(event.item_id),
            outputIndex: index,
          });
          break;
        }
        case 'response.completed':
        case 'response.incomplete':
        case 'response.failed': {
          const terminal: ResponsesResponseLike = { ...(response ?? {}) };
          if (event.type !== 'response.completed')
            terminal.status = event.type === 'response.failed' ? 'failed' : 'incomplete';
          const result = fromResponsesResponse(terminal, {
            fallbackOutput: slots.assemble(),
            outputEmitted,
          });
          if (result.responseId === undefined && seenId !== undefined) result.responseId = seenId;
          if (result.modelName === undefined && seenModel !== undefined)
            result.modelName = seenModel;
          await assertValidOutputItems(result.output, 'OpenAI Responses API');
          if (!started) yield startEvent();
          yield { type: 'response_done', response: result };
          return;
        }
        case 'error':
          throw streamFailure(event.error ?? event, { outputEmitted, source: 'error event' });
      }
      if (count > 10_000_000)
        throw new ModelCallError('OpenAI stream: more than 10 million events; giving up.', {
          code: 'stream_too_long',
        });
    }
  } finally {
    // Stop the SDK stream (and its HTTP request) when we leave early: terminal event, error, or
    // the consumer stopped iterating.
    if (!iteratorClosed) await iterator.return?.().catch(() => undefined);
  }
  if (options.signal?.aborted) throw options.signal.reason;
  throw new ModelCallError(
    `The OpenAI stream${at} ended before a terminal event (response.completed / incomplete / failed)${
      outputEmitted
        ? ' after output had been streamed; the partial response is not replayed.'
        : '; retrying may succeed.'
    }`,
    { retryable: !outputEmitted, code: 'stream_incomplete' },
  );
}
