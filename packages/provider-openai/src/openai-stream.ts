/**
 * OpenAI Responses stream events (as parsed by the `openai` SDK) → Baton `ModelStreamEvent`s.
 * Source of the event names: https://platform.openai.com/docs/api-reference/responses-streaming
 */
import { type Item, ModelCallError, type ModelStreamEvent } from '@baton/kernel';
import {
  fromResponsesOutputItem,
  fromResponsesResponse,
  type ResponsesResponseLike,
} from './convert-from-openai-output.js';
import { streamFailure, toModelCallError } from './openai-errors.js';

/** Options of {@link toModelStreamEvents}. */
export interface ToModelStreamEventsOptions {
  /** The caller's abort signal: once aborted, its reason is thrown instead of a stream error. */
  signal?: AbortSignal;
}

/**
 * Maps a Responses event stream to kernel stream events. Every event is first passed through as
 * `{ type: 'raw', providerId: 'openai', event }`, then mapped:
 *
 * | Responses event | kernel event |
 * | --- | --- |
 * | `response.created` | `response_started` (`responseId`) |
 * | `response.output_item.added` / `.done` | `output_item_added` / `output_item_done` (`outputIndex`) |
 * | `response.output_text.delta` | `text_delta` |
 * | `response.function_call_arguments.delta` | `function_call_arguments_delta` (`callId` from the item) |
 * | `response.reasoning_summary_text.delta`, `response.reasoning_text.delta` | `reasoning_delta` |
 * | `response.completed` | `response_done` with the full response (the last event) |
 * | `response.incomplete` | `response_done` when the output is usable, else `ModelBehaviorError` |
 * | `response.failed`, `error` | `ModelCallError` with the server's message and code |
 *
 * Other events (annotations, hosted-tool progress, refusal deltas, …) appear only as `raw`.
 *
 * A stream that breaks (connection reset, body cut) or ends without a terminal event throws
 * `ModelCallError` (`code: 'connection_error'` / `'stream_incomplete'`), `retryable` only when
 * no output was emitted yet. "Output" means an `output_item_added` or a delta; the
 * `response_started` and raw lifecycle events (`response.created`, `response.in_progress`)
 * carry none. Whether to replay is the kernel's decision; the flag is the model's advice.
 */
export async function* toModelStreamEvents(
  events: AsyncIterable<unknown>,
  options: ToModelStreamEventsOptions = {},
): AsyncGenerator<ModelStreamEvent> {
  const iterator = events[Symbol.asyncIterator]();
  const callIds = new Map<string, string>();
  const doneItems: Item[] = [];
  let outputEmitted = false;
  let iteratorClosed = false;
  try {
    for (let count = 0; ; count++) {
      let next: IteratorResult<unknown>;
      try {
        next = await iterator.next();
      } catch (error) {
        iteratorClosed = true;
        if (options.signal?.aborted) throw options.signal.reason ?? error;
        throw toModelCallError(error, { outputEmitted });
      }
      if (next.done) {
        iteratorClosed = true;
        break;
      }
      const event = next.value as StreamEvent;
      yield { type: 'raw', providerId: 'openai', event };
      switch (event.type) {
        case 'response.created':
          yield { type: 'response_started', responseId: event.response?.id };
          break;
        case 'response.output_item.added': {
          const item = fromResponsesOutputItem(event.item);
          if (item.type === 'function_call' && typeof item.id === 'string')
            callIds.set(item.id, item.call_id);
          outputEmitted = true;
          yield { type: 'output_item_added', item, outputIndex: event.output_index };
          break;
        }
        case 'response.output_item.done': {
          const item = fromResponsesOutputItem(event.item);
          doneItems[event.output_index ?? doneItems.length] = item;
          outputEmitted = true;
          yield { type: 'output_item_done', item, outputIndex: event.output_index };
          break;
        }
        case 'response.output_text.delta':
          outputEmitted = true;
          yield {
            type: 'text_delta',
            delta: event.delta ?? '',
            itemId: event.item_id,
            outputIndex: event.output_index,
          };
          break;
        case 'response.function_call_arguments.delta':
          outputEmitted = true;
          yield {
            type: 'function_call_arguments_delta',
            delta: event.delta ?? '',
            callId: event.item_id === undefined ? undefined : callIds.get(event.item_id),
            itemId: event.item_id,
            outputIndex: event.output_index,
          };
          break;
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta':
          outputEmitted = true;
          yield {
            type: 'reasoning_delta',
            delta: event.delta ?? '',
            itemId: event.item_id,
            outputIndex: event.output_index,
          };
          break;
        case 'response.completed':
        case 'response.incomplete':
        case 'response.failed': {
          const response = event.response ?? {};
          const fallbackOutput = doneItems.filter((i) => i !== undefined);
          yield {
            type: 'response_done',
            response: fromResponsesResponse(response, { fallbackOutput, outputEmitted }),
          };
          return;
        }
        case 'error':
          throw streamFailure(event.error ?? event, { outputEmitted, source: 'error event' });
      }
      if (count > 10_000_000)
        throw new Error('OpenAI stream: more than 10 million events; giving up.');
    }
  } finally {
    // Stop the SDK stream (and its HTTP request) when we leave early: terminal event, error, or
    // the consumer stopped iterating.
    if (!iteratorClosed) await iterator.return?.().catch(() => undefined);
  }
  if (options.signal?.aborted) throw options.signal.reason;
  throw new ModelCallError(
    `The OpenAI stream ended before a terminal event (response.completed / incomplete / failed)${
      outputEmitted
        ? ' after output had been streamed; the partial response is not replayed.'
        : '; retrying may succeed.'
    }`,
    { retryable: !outputEmitted, code: 'stream_incomplete' },
  );
}

/** The fields of a stream event this module reads (the SDK's `ResponseStreamEvent`, loosely). */
interface StreamEvent {
  type: string;
  response?: ResponsesResponseLike & { id?: string };
  item?: unknown;
  item_id?: string;
  output_index?: number;
  delta?: string;
  error?: unknown;
}
