/**
 * Chat Completions stream (`chat.completion.chunk` objects, already parsed from SSE by the
 * `openai` client) → the kernel's `ModelStreamEvent`s. Source: OpenAI Chat Completions
 * streaming reference; DeepSeek (`reasoning_content` deltas, usage on the finish chunk) and
 * Groq (`reasoning` deltas, `x_groq.usage`) variants as recorded from the live APIs.
 */
import type { FunctionCallItem, Item, ModelStreamEvent } from '@baton/kernel';
import { ModelCallError } from '@baton/kernel';
import { toModelCallError } from './chat-errors.js';
import {
  assertNotCutInToolCall,
  type ChatUsageWire,
  chatFunctionCallItem,
  chatMessageItem,
  chatReasoningItem,
  contentTextOf,
  convertChatUsage,
  reasoningTextOf,
} from './convert-from-chat-output.js';

interface ChunkWire {
  id?: string;
  model?: string;
  choices?: { index?: number; delta?: any; finish_reason?: string | null }[];
  usage?: ChatUsageWire | null;
  x_groq?: { usage?: ChatUsageWire | null };
}

interface ToolCallState {
  id: string;
  name: string;
  arguments: string;
  outputIndex: number;
}

/** Options of {@link convertChatStream}. */
export interface ChatStreamOptions {
  /** Provider id for `raw` events, `provider_data` and error messages. */
  providerId: string;
  /** The request's abort signal: an abort ends the stream with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Turns the chunks of one streamed completion into kernel stream events:
 * `response_started` (first chunk), a `raw` event per chunk, `output_item_added` when a
 * reasoning text, message or tool call first appears, `reasoning_delta` / `text_delta` /
 * `function_call_arguments_delta`, then `output_item_done` per item and one `response_done`
 * with the full response. Tool calls are assembled by their `index` across chunks (the first
 * chunk of a call carries `id` and `name`). Usage is read from whichever chunk carries it (a
 * separate `choices: []` chunk, the finish chunk, or `x_groq.usage`); none means zeros.
 *
 * @throws ModelCallError when the stream fails or ends before a `finish_reason` (retryable only
 *   when no output had been produced); ModelBehaviorError when the token limit cut a tool call;
 *   the signal's reason when aborted.
 */
export async function* convertChatStream(
  chunks: AsyncIterable<unknown>,
  options: ChatStreamOptions,
): AsyncGenerator<ModelStreamEvent> {
  const { providerId, signal } = options;
  let responseId: string | undefined;
  let modelName: string | undefined;
  let started = false;
  let outputStarted = false;
  let nextIndex = 0;
  let reasoning: { text: string; outputIndex: number } | undefined;
  let message: { text: string; refusal: string; outputIndex: number } | undefined;
  const calls = new Map<number, ToolCallState>();
  let finishReason: string | undefined;
  let usage: ChatUsageWire | undefined;
  const fallbackId = (index: number) => `${responseId ?? 'chat'}_call_${index}`;

  try {
    for await (const raw of chunks) {
      const chunk = raw as ChunkWire;
      if (!started) {
        started = true;
        responseId = chunk.id;
        yield { type: 'response_started', responseId };
      }
      modelName ??= chunk.model;
      yield { type: 'raw', providerId, event: raw };
      const chunkUsage = chunk.usage ?? chunk.x_groq?.usage;
      if (chunkUsage) usage = chunkUsage;
      const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
      if (!choice) continue;
      const delta = choice.delta ?? {};

      const reasoningDelta = reasoningTextOf(delta);
      if (reasoningDelta) {
        if (!reasoning) {
          reasoning = { text: '', outputIndex: nextIndex++ };
          yield {
            type: 'output_item_added',
            item: chatReasoningItem('', providerId),
            outputIndex: reasoning.outputIndex,
          };
        }
        reasoning.text += reasoningDelta;
        outputStarted = true;
        yield {
          type: 'reasoning_delta',
          delta: reasoningDelta,
          outputIndex: reasoning.outputIndex,
        };
      }

      const textDelta = contentTextOf(delta.content);
      const refusalDelta = typeof delta.refusal === 'string' ? delta.refusal : '';
      if (textDelta || refusalDelta) {
        if (!message) {
          message = { text: '', refusal: '', outputIndex: nextIndex++ };
          yield {
            type: 'output_item_added',
            item: { type: 'message', role: 'assistant', content: [], status: 'in_progress' },
            outputIndex: message.outputIndex,
          };
        }
        outputStarted = true;
        message.refusal += refusalDelta;
        if (textDelta) {
          message.text += textDelta;
          yield { type: 'text_delta', delta: textDelta, outputIndex: message.outputIndex };
        }
      }

      const toolCalls: any[] = Array.isArray(delta.tool_calls) ? delta.tool_calls : [];
      for (let position = 0; position < toolCalls.length; position++) {
        const tc = toolCalls[position];
        const index = typeof tc.index === 'number' ? tc.index : position;
        let call = calls.get(index);
        if (!call) {
          call = {
            id: tc.id ?? '',
            name: tc.function?.name ?? '',
            arguments: '',
            outputIndex: nextIndex++,
          };
          calls.set(index, call);
          outputStarted = true;
          const added: FunctionCallItem = {
            type: 'function_call',
            call_id: call.id || fallbackId(index),
            name: call.name,
            arguments: '',
            status: 'in_progress',
          };
          yield { type: 'output_item_added', item: added, outputIndex: call.outputIndex };
        } else {
          if (tc.id && !call.id) call.id = tc.id;
          if (tc.function?.name && !call.name) call.name = tc.function.name;
        }
        const argsDelta = tc.function?.arguments;
        if (typeof argsDelta === 'string' && argsDelta !== '') {
          call.arguments += argsDelta;
          yield {
            type: 'function_call_arguments_delta',
            delta: argsDelta,
            callId: call.id || fallbackId(index),
            outputIndex: call.outputIndex,
          };
        }
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
  } catch (error) {
    signal?.throwIfAborted();
    throw toModelCallError(error, { providerId, outputStarted });
  }
  signal?.throwIfAborted();
  if (finishReason === undefined) {
    throw new ModelCallError(
      outputStarted
        ? `The ${providerId} (Chat Completions) stream ended before a finish_reason, after output had started; it is not replayed. Retry the turn if needed.`
        : `The ${providerId} (Chat Completions) stream ended before any output or finish_reason. The request can be retried.`,
      { retryable: !outputStarted, code: 'stream_incomplete' },
    );
  }
  assertNotCutInToolCall(finishReason, calls.size > 0, providerId);

  const incomplete = finishReason === 'length' || finishReason === 'content_filter';
  const indexed: { item: Item; outputIndex: number }[] = [];
  if (reasoning)
    indexed.push({
      item: chatReasoningItem(reasoning.text, providerId),
      outputIndex: reasoning.outputIndex,
    });
  const messageItem =
    message && chatMessageItem(message.text, message.refusal || undefined, incomplete);
  if (message && messageItem) indexed.push({ item: messageItem, outputIndex: message.outputIndex });
  for (const [index, call] of [...calls.entries()].sort((a, b) => a[0] - b[0])) {
    indexed.push({
      item: chatFunctionCallItem(call, fallbackId(index)),
      outputIndex: call.outputIndex,
    });
  }
  indexed.sort((a, b) => a.outputIndex - b.outputIndex);
  for (const entry of indexed)
    yield { type: 'output_item_done', item: entry.item, outputIndex: entry.outputIndex };
  yield {
    type: 'response_done',
    response: {
      output: indexed.map((e) => e.item),
      usage: convertChatUsage(usage),
      responseId,
      modelName,
    },
  };
}
