/**
 * Chat Completions stream (`chat.completion.chunk` objects, already parsed from SSE by the
 * `openai` client) → the kernel's `ModelStreamEvent`s. Source: OpenAI Chat Completions
 * streaming reference; DeepSeek (`reasoning_content` deltas, usage on the finish chunk), Groq
 * (`reasoning` deltas, `x_groq.usage`) and the tool-call variants of other OpenAI-compatible
 * servers (see `chat-tool-calls.ts` and docs/provider-quirks.md).
 */
import type { Item, ModelStreamEvent } from '@baton/kernel';
import { ModelCallError } from '@baton/kernel';
import { assertValidOutputItems, StreamPump } from '@baton/provider-utils';
import { readFailure, toModelCallError } from './chat-errors.js';
import { ChatToolCallAssembler, callIdOf } from './chat-tool-calls.js';
import {
  assertNotCutInToolCall,
  type ChatUsageWire,
  chatFunctionCallItem,
  chatMessageItem,
  chatReasoningItem,
  contentTextOf,
  convertChatUsage,
  nonEmptyString,
  reasoningTextOf,
  uniqueCallIds,
} from './convert-from-chat-output.js';

/** Options of {@link convertChatStream}. */
export interface ChatStreamOptions {
  /** Provider id for `raw` events, `provider_data` and error messages. */
  providerId: string;
  /** The request's abort signal: an abort ends the stream with the signal's reason. */
  signal?: AbortSignal;
  /** The request URL, named in error messages. */
  url?: string;
}

const isRecord = (value: unknown): value is Record<string, any> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Turns the chunks of one streamed completion into kernel stream events. `chunks` is the
 * client's stream, or a function opening it on the first `next()` (its failure is a read failure
 * before any output). Events: a `raw` event per
 * chunk; `response_started` once (with the first non-empty chunk `id`; at the latest before the
 * first output); `output_item_added` when a reasoning text, message or tool call first appears;
 * `reasoning_delta` / `text_delta` / `function_call_arguments_delta`; then `output_item_done`
 * per item and one `response_done` with the full response.
 *
 * Metadata: `responseId` and `modelName` come from the first chunk where they are non-empty
 * (routers such as Azure's send a first chunk with `id: ""`, `model: ""` and `choices: []`).
 * Tool calls are assembled as described in `ChatToolCallAssembler`. Usage is read from whichever
 * chunk carries it (a separate `choices: []` chunk, the finish chunk, or `x_groq.usage`); none
 * means zeros.
 *
 * @throws ModelCallError when the stream fails, carries an event that is not a JSON object
 *   (`data: null`), or ends before a `finish_reason` (retryable only when no output had been
 *   produced); ModelBehaviorError when the token limit cut a tool call or an assembled item is
 *   invalid; the signal's reason when aborted.
 */
export function convertChatStream(
  chunks: AsyncIterable<unknown> | (() => PromiseLike<AsyncIterable<unknown>>),
  options: ChatStreamOptions,
): AsyncIterableIterator<ModelStreamEvent> {
  const { providerId, signal } = options;
  const where = `${providerId} (Chat Completions)`;
  let responseId: string | undefined;
  let modelName: string | undefined;
  let started = false;
  let outputStarted = false;
  let nextIndex = 0;
  let reasoning: { text: string; outputIndex: number } | undefined;
  let message: { text: string; refusal: string; outputIndex: number } | undefined;
  const tools = new ChatToolCallAssembler();
  let finishReason: string | undefined;
  let usage: ChatUsageWire | undefined;
  const fallbackPrefix = () => responseId ?? `chat_${Math.random().toString(36).slice(2, 10)}`;
  const startEvent = (): ModelStreamEvent => {
    started = true;
    return { type: 'response_started', responseId };
  };
  /** Output begins: `response_started` first, once. */
  const begin = (out: ModelStreamEvent[]) => {
    if (!started) out.push(startEvent());
    outputStarted = true;
  };

  /** The output index and fallback id of a tool call that starts. */
  const newCall = () => ({
    outputIndex: nextIndex++,
    fallbackId: `${fallbackPrefix()}_call_${tools.calls.length}`,
  });

  const step = (raw: unknown, out: ModelStreamEvent[]): undefined => {
    if (!isRecord(raw)) {
      throw new ModelCallError(
        `${where} sent a stream event that is not a JSON object (${(JSON.stringify(raw) ?? 'nothing').slice(0, 100)})${options.url ? ` from ${options.url}` : ''}; the stream is not usable. ${outputStarted ? 'Output had already started; it is not replayed.' : 'The request can be retried.'}`,
        { retryable: !outputStarted, code: 'invalid_stream_event' },
      );
    }
    const chunk = raw;
    responseId ??= nonEmptyString(chunk.id);
    modelName ??= nonEmptyString(chunk.model);
    if (!started && responseId !== undefined) out.push(startEvent());
    out.push({ type: 'raw', providerId, event: raw });
    const chunkUsage = isRecord(chunk.usage)
      ? chunk.usage
      : isRecord(chunk.x_groq) && isRecord(chunk.x_groq.usage)
        ? chunk.x_groq.usage
        : undefined;
    if (chunkUsage) usage = chunkUsage;
    const choice = firstChoice(chunk.choices);
    if (!choice) return;
    const delta: Record<string, any> = isRecord(choice.delta) ? choice.delta : {};

    const reasoningDelta = reasoningTextOf(delta);
    if (reasoningDelta) {
      begin(out);
      if (!reasoning) {
        reasoning = { text: '', outputIndex: nextIndex++ };
        out.push({
          type: 'output_item_added',
          item: chatReasoningItem('', providerId),
          outputIndex: reasoning.outputIndex,
        });
      }
      reasoning.text += reasoningDelta;
      out.push({
        type: 'reasoning_delta',
        delta: reasoningDelta,
        outputIndex: reasoning.outputIndex,
      });
    }

    const textDelta = contentTextOf(delta.content);
    const refusalDelta = typeof delta.refusal === 'string' ? delta.refusal : '';
    if (textDelta || refusalDelta) {
      begin(out);
      if (!message) {
        message = { text: '', refusal: '', outputIndex: nextIndex++ };
        out.push({
          type: 'output_item_added',
          item: { type: 'message', role: 'assistant', content: [], status: 'in_progress' },
          outputIndex: message.outputIndex,
        });
      }
      message.refusal += refusalDelta;
      if (textDelta) {
        message.text += textDelta;
        out.push({ type: 'text_delta', delta: textDelta, outputIndex: message.outputIndex });
      }
    }

    const toolCalls = delta.tool_calls;
    if (Array.isArray(toolCalls)) {
      for (let position = 0; position < toolCalls.length; position++) {
        const result = tools.apply(toolCalls[position], position, newCall);
        if (!result) continue;
        begin(out);
        const { call } = result;
        if (result.started) {
          out.push({
            type: 'output_item_added',
            item: {
              type: 'function_call',
              call_id: callIdOf(call),
              name: call.name,
              arguments: '',
              status: 'in_progress',
            },
            outputIndex: call.outputIndex,
          });
        }
        if (result.argumentsDelta !== '') {
          out.push({
            type: 'function_call_arguments_delta',
            delta: result.argumentsDelta,
            callId: callIdOf(call),
            outputIndex: call.outputIndex,
          });
        }
      }
    }
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '')
      finishReason = choice.finish_reason;
    return undefined;
  };

  const end = (out: ModelStreamEvent[]): void => {
    signal?.throwIfAborted();
    if (finishReason === undefined) {
      throw new ModelCallError(
        outputStarted
          ? `The ${where} stream ended before a finish_reason, after output had started; it is not replayed. Retry the turn if needed.`
          : `The ${where} stream ended before any output or finish_reason. The request can be retried.`,
        { retryable: !outputStarted, code: 'stream_incomplete' },
      );
    }
    assertNotCutInToolCall(finishReason, tools.calls.length > 0, providerId);

    const incomplete = finishReason === 'length' || finishReason === 'content_filter';
    const indexed: { item: Item; outputIndex: number }[] = [];
    if (reasoning)
      indexed.push({
        item: chatReasoningItem(reasoning.text, providerId),
        outputIndex: reasoning.outputIndex,
      });
    const messageItem =
      message && chatMessageItem(message.text, message.refusal || undefined, incomplete);
    if (message && messageItem)
      indexed.push({ item: messageItem, outputIndex: message.outputIndex });
    const callItems = uniqueCallIds(
      tools.calls.map((call) =>
        chatFunctionCallItem(
          {
            id: call.id,
            name: call.name,
            arguments: call.arguments,
            extra_content: call.extraContent,
          },
          call.fallbackId,
          providerId,
        ),
      ),
    );
    tools.calls.forEach((call, i) => {
      indexed.push({ item: callItems[i], outputIndex: call.outputIndex });
    });
    // Usually already in output order (reasoning, message, calls as they started).
    for (let i = 1; i < indexed.length; i++)
      if (indexed[i - 1].outputIndex > indexed[i].outputIndex) {
        indexed.sort((a, b) => a.outputIndex - b.outputIndex);
        break;
      }
    const output = indexed.map((e) => e.item);
    assertValidOutputItems(output, where);
    if (!started) out.push(startEvent());
    for (const entry of indexed)
      out.push({ type: 'output_item_done', item: entry.item, outputIndex: entry.outputIndex });
    out.push({
      type: 'response_done',
      response: { output, usage: convertChatUsage(usage), responseId, modelName },
    });
  };

  return new StreamPump<unknown, ModelStreamEvent>({
    open: () => (typeof chunks === 'function' ? chunks() : chunks),
    step,
    end,
    // Failures of opening or reading the stream (the client's SSE parsing and chunk handling)
    // through `readFailure`; errors of the mapping through `toModelCallError`; an abort wins.
    error: (error, phase) => {
      if (signal?.aborted) return signal.reason;
      const context = { providerId, outputStarted, url: options.url };
      return phase === 'step' ? toModelCallError(error, context) : readFailure(error, context);
    },
  });
}

/** The choice with `index` 0 (or no index) of a chunk's `choices`, if any. */
function firstChoice(choices: unknown): Record<string, any> | undefined {
  if (!Array.isArray(choices)) return undefined;
  for (const c of choices) if (isRecord(c) && (c.index ?? 0) === 0) return c;
  return undefined;
}
