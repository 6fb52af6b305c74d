/**
 * OpenAI Responses stream events (as parsed by the `openai` SDK) → Baton `ModelStreamEvent`s.
 * Source of the event names: https://platform.openai.com/docs/api-reference/responses-streaming
 */
import { ModelCallError, type ModelStreamEvent } from '@baton/kernel';
import { assertValidOutputItems, StreamPump } from '@baton/provider-utils';
import {
  fromResponsesOutputItem,
  fromResponsesResponse,
  type ResponsesResponseLike,
} from './convert-from-openai-output.js';
import { readFailure, streamFailure } from './openai-errors.js';
import { appendDelta, isIndex, OutputSlots } from './responses-output-slots.js';

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
 * Maps a Responses event stream to kernel stream events. `events` is the SDK's stream, or a
 * function opening it on the first `next()` (its failure is mapped like a read failure, with no
 * output emitted). Every event is first passed through as
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
export function toModelStreamEvents(
  events: AsyncIterable<unknown> | (() => PromiseLike<AsyncIterable<unknown>>),
  options: ToModelStreamEventsOptions = {},
): AsyncIterableIterator<ModelStreamEvent> {
  const slots = new OutputSlots();
  let outputEmitted = false;
  let started = false;
  let count = 0;
  let seenId: string | undefined;
  let seenModel: string | undefined;
  const at = options.url ? ` from ${options.url}` : '';
  const startEvent = (): ModelStreamEvent => {
    started = true;
    return { type: 'response_started', responseId: seenId };
  };
  const invalid = (what: string) =>
    new ModelCallError(
      `OpenAI Responses API sent ${what}${at}. ${outputEmitted ? 'Output had already been streamed; the partial response is not replayed.' : 'Retrying may succeed.'}`,
      { retryable: !outputEmitted, code: 'invalid_stream_event' },
    );

  const assemble = () => slots.assemble();
  const terminal = (
    type: string,
    response: ResponsesResponseLike | undefined,
    out: ModelStreamEvent[],
  ): 'stop' => {
    const last: ResponsesResponseLike = { ...(response ?? {}) };
    if (type !== 'response.completed')
      last.status = type === 'response.failed' ? 'failed' : 'incomplete';
    const result = fromResponsesResponse(last, { fallbackOutput: assemble, outputEmitted });
    if (result.responseId === undefined && seenId !== undefined) result.responseId = seenId;
    if (result.modelName === undefined && seenModel !== undefined) result.modelName = seenModel;
    assertValidOutputItems(result.output, 'OpenAI Responses API');
    if (!started) out.push(startEvent());
    out.push({ type: 'response_done', response: result });
    return 'stop';
  };

  const step = (event: unknown, out: ModelStreamEvent[]): undefined | 'stop' => {
    if (!isRecord(event))
      throw invalid(
        `a stream event that is not a JSON object (${(JSON.stringify(event) ?? 'nothing').slice(0, 100)})`,
      );
    if (++count > 10_000_000)
      throw new ModelCallError('OpenAI stream: more than 10 million events; giving up.', {
        code: 'stream_too_long',
      });
    out.push({ type: 'raw', providerId: 'openai', event });
    const response = isRecord(event.response)
      ? (event.response as ResponsesResponseLike & Record<string, unknown>)
      : undefined;
    if (response) {
      seenId ??= nonEmpty(response.id);
      seenModel ??= nonEmpty(response.model);
      if (!started && seenId !== undefined) out.push(startEvent());
    }
    const type = event.type;
    // Every output event below: `response_started` first (once), then the event itself.
    let item: ModelStreamEvent | undefined;
    switch (type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta': {
        const delta = typeof event.delta === 'string' ? event.delta : '';
        const slot = slots.slotOf(event.output_index);
        const part = isIndex(event.content_index) ? event.content_index : 0;
        appendDelta(type === 'response.refusal.delta' ? slot.refusal : slot.text, part, delta);
        if (type === 'response.refusal.delta') return;
        item = {
          type: 'text_delta',
          delta,
          itemId: OutputSlots.itemId(slot) ?? nonEmpty(event.item_id),
          outputIndex: slot.index,
        };
        break;
      }
      case 'response.function_call_arguments.delta': {
        const delta = typeof event.delta === 'string' ? event.delta : '';
        const slot = slots.slotOf(event.output_index);
        slot.args += delta;
        item = {
          type: 'function_call_arguments_delta',
          delta,
          callId: OutputSlots.callId(slot),
          itemId: OutputSlots.itemId(slot) ?? nonEmpty(event.item_id),
          outputIndex: slot.index,
        };
        break;
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const delta = typeof event.delta === 'string' ? event.delta : '';
        const slot = slots.slotOf(event.output_index);
        if (type === 'response.reasoning_summary_text.delta') {
          const part = isIndex(event.summary_index) ? event.summary_index : 0;
          appendDelta(slot.summary, part, delta);
        }
        item = {
          type: 'reasoning_delta',
          delta,
          itemId: OutputSlots.itemId(slot) ?? nonEmpty(event.item_id),
          outputIndex: slot.index,
        };
        break;
      }
      case 'response.output_item.added':
      case 'response.output_item.done': {
        if (!(isRecord(event.item) && typeof event.item.type === 'string'))
          throw invalid(`${type} without an item (an object with a type)`);
        const added = fromResponsesOutputItem(event.item);
        const fresh = type === 'response.output_item.added';
        const slot = slots.slotOf(event.output_index, fresh);
        if (fresh) slot.added = added;
        else slot.done = added;
        item = {
          type: fresh ? 'output_item_added' : 'output_item_done',
          item: added,
          outputIndex: slot.index,
        };
        break;
      }
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
        return terminal(type, response, out);
      case 'error':
        throw streamFailure(event.error ?? event, { outputEmitted, source: 'error event' });
    }
    if (item) {
      outputEmitted = true;
      if (!started) out.push(startEvent());
      out.push(item);
    }
    return undefined;
  };

  return new StreamPump<unknown, ModelStreamEvent>({
    open: () => (typeof events === 'function' ? events() : events),
    step,
    end: () => {
      if (options.signal?.aborted) throw options.signal.reason;
      throw new ModelCallError(
        `The OpenAI stream${at} ended before a terminal event (response.completed / incomplete / failed)${
          outputEmitted
            ? ' after output had been streamed; the partial response is not replayed.'
            : '; retrying may succeed.'
        }`,
        { retryable: !outputEmitted, code: 'stream_incomplete' },
      );
    },
    error: (error, phase) => {
      if (phase === 'step') return error;
      if (options.signal?.aborted) return options.signal.reason ?? error;
      return readFailure(error, { outputEmitted, url: options.url });
    },
  });
}
