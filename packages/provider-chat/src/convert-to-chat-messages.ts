/**
 * Kernel items (OpenAI Responses item shapes) → Chat Completions `messages`.
 *
 * Rules (source: OpenAI Chat Completions API reference, `messages`):
 * - the request's system instructions are the first message; system/developer messages of the
 *   history stay in place (or, with `systemMessages: 'first'`, follow the instructions);
 * - an assistant message followed by function calls of the same turn becomes ONE assistant
 *   message with `content` (the text, or `null` — never `""`) and `tool_calls`;
 * - each `function_call_output` becomes a `tool` message with its `tool_call_id`; images or
 *   files in a tool output follow the tool messages of that turn as one `user` message
 *   (Chat Completions tool messages take text only);
 * - `input_image` → `image_url` part, `input_file` → `file` part;
 * - a `refusal` part is sent as the assistant message's `refusal` and, when there is no text,
 *   as its content, so the model still sees what it said;
 * - reasoning items are dropped, except `provider_data[providerId].reasoning_content`, which is
 *   replayed on the next assistant message when `reasoningContent` is `'replay'` (DeepSeek);
 * - hosted-tool items and other Responses-only items are dropped (Chat Completions cannot
 *   represent them);
 * - a function call's `provider_data[providerId].extra_content` (Gemini's thought signature) is
 *   sent back on its tool call;
 * - with `toolCallIdFormat: 'alphanumeric9'` (Mistral) every tool call id and `tool_call_id` is
 *   mapped to 9 letters/digits, the same way for a call and its output.
 */

import { type ContentPart, type Item, type MessageItem, UserError } from '@baton/kernel';
import { inputItemError } from '@baton/provider-utils';
import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from 'openai/resources/chat/completions';
import { alphanumeric9 } from './endpoint.js';

/** How items are converted; see {@link convertToChatMessages}. */
export interface ChatMessageOptions {
  /** Provider id: the `provider_data` key read for `reasoning_content` and used in error messages. */
  providerId: string;
  /** `'replay'` sends `reasoning_content` back on assistant messages (DeepSeek); default drop. */
  reasoningContent?: 'drop' | 'replay';
  /** `'alphanumeric9'` maps tool call ids to `[a-zA-Z0-9]{9}` (Mistral); default `'any'` (as is). */
  toolCallIdFormat?: 'any' | 'alphanumeric9';
  /**
   * Where system/developer messages of the history go. `'in_place'` (default): where they are,
   * as openai-agents-js/-python and the AI SDK send them (the Chat Completions API accepts them
   * anywhere). `'first'`: right after `systemInstructions`, before the conversation, in their
   * order — for servers whose chat template takes system messages only at the start.
   */
  systemMessages?: 'in_place' | 'first';
}

/** Media of one tool output, sent as a user message after the turn's tool messages. */
interface Media {
  callId: string;
  parts: ChatCompletionContentPart[];
}

/**
 * Converts kernel items to Chat Completions messages. `systemInstructions` (when given) becomes
 * the first `system` message.
 * @throws UserError for content Chat Completions cannot carry (an image given only by
 *   `file_id`, a file given only by `file_url`, images in a system message), and for content
 *   parts without the field their type needs (an `input_text` without a string `text`, …),
 *   and for an item the kernel's item check rejects (`null` content, a `null` part, …), naming it.
 */
export function convertToChatMessages(
  items: readonly Item[],
  systemInstructions: string | undefined,
  options: ChatMessageOptions,
): ChatCompletionMessageParam[] {
  try {
    return convertMessages(items, systemInstructions, options);
  } catch (error) {
    throw inputItemError(error, items, `Chat Completions (provider "${options.providerId}")`);
  }
}

function convertMessages(
  items: readonly Item[],
  systemInstructions: string | undefined,
  options: ChatMessageOptions,
): ChatCompletionMessageParam[] {
  // One pass, state in locals (no closures, no draft object): this runs on the whole history
  // every turn, so its per-item cost is what a long conversation pays (bench P2).
  const providerId = options.providerId;
  const mapIds = options.toolCallIdFormat === 'alphanumeric9';
  const replay = options.reasoningContent === 'replay';
  const inPlace = options.systemMessages !== 'first';
  const messages: ChatCompletionMessageParam[] = [];
  if (systemInstructions) messages.push({ role: 'system', content: systemInstructions });
  // With `systemMessages: 'first'`, system/developer messages go first: pushed in place until
  // another message is, then kept aside and inserted at `headLength` at the end.
  let headLength = messages.length;
  let lateHead: ChatCompletionMessageParam[] | undefined;
  // The assistant message being assembled (an assistant message or a call opens it).
  let open = false;
  let text: string | undefined;
  let refusal: string | undefined;
  let toolCalls: ChatCompletionMessageToolCall[] | undefined;
  let reasoning: string | undefined;
  let pendingReasoning: string | undefined;
  let media: Media[] | undefined;

  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    switch (item.type) {
      case 'message': {
        const role = item.role;
        const content = item.content;
        const system = role === 'system' || role === 'developer';
        if (system && !inPlace) {
          const message = { role, content: textOnly(item, providerId) };
          if (messages.length === headLength) {
            messages.push(message);
            headLength++;
          } else if (lateHead) lateHead.push(message);
          else lateHead = [message];
        } else if (role === 'user' || system) {
          // Ends the assistant turn being assembled (and its tool outputs' media).
          if (open) {
            const message = assistantMessage(text, refusal, toolCalls, reasoning);
            if (message) messages.push(message);
            open = false;
          }
          if (media) {
            messages.push(mediaMessage(media));
            media = undefined;
          }
          if (system) messages.push({ role, content: textOnly(item, providerId) });
          else {
            pendingReasoning = undefined;
            messages.push({
              role: 'user',
              content: typeof content === 'string' ? content : userContent(content, providerId),
            });
          }
        } else {
          if (media) {
            messages.push(mediaMessage(media));
            media = undefined;
          }
          if (open) {
            const message = assistantMessage(text, refusal, toolCalls, reasoning);
            if (message) messages.push(message);
          }
          open = true;
          toolCalls = undefined;
          reasoning = pendingReasoning;
          pendingReasoning = undefined;
          refusal = undefined;
          if (typeof content === 'string') text = content;
          else if (
            content.length === 1 &&
            content[0]!.type === 'output_text' &&
            typeof content[0]!.text === 'string'
          )
            text = content[0]!.text;
          else {
            const parts = assistantText(content, providerId);
            text = parts.text;
            refusal = parts.refusal;
          }
        }
        break;
      }
      case 'function_call': {
        if (media) {
          messages.push(mediaMessage(media));
          media = undefined;
        }
        if (!open) {
          open = true;
          text = undefined;
          refusal = undefined;
          toolCalls = undefined;
          reasoning = pendingReasoning;
          pendingReasoning = undefined;
        }
        const toolCall: ChatCompletionMessageToolCall & { extra_content?: unknown } = {
          id: mapIds ? alphanumeric9(item.call_id) : item.call_id,
          type: 'function',
          function: { name: item.name, arguments: item.arguments },
        };
        const data = item.provider_data;
        if (data !== undefined && data !== null) {
          const extra = (data[providerId] as { extra_content?: unknown } | undefined)
            ?.extra_content;
          if (typeof extra === 'object' && extra !== null && !Array.isArray(extra))
            toolCall.extra_content = extra;
        }
        if (toolCalls) toolCalls.push(toolCall);
        else toolCalls = [toolCall];
        break;
      }
      case 'function_call_output': {
        if (open) {
          const message = assistantMessage(text, refusal, toolCalls, reasoning);
          if (message) messages.push(message);
          open = false;
        }
        const id = mapIds ? alphanumeric9(item.call_id) : item.call_id;
        const output = item.output;
        if (typeof output === 'string') {
          messages.push({ role: 'tool', tool_call_id: id, content: output });
          break;
        }
        const converted = toolOutput(output, providerId);
        const count = converted.parts.length;
        messages.push({
          role: 'tool',
          tool_call_id: id,
          content:
            count > 0 && converted.text === ''
              ? `[${count} attachment(s) follow in the next user message]`
              : converted.text,
        });
        if (count > 0) {
          const entry = { callId: item.call_id, parts: converted.parts };
          if (media) media.push(entry);
          else media = [entry];
        }
        break;
      }
      case 'reasoning': {
        if (!replay) break;
        const data = item.provider_data?.[providerId] as
          | { reasoning_content?: unknown }
          | undefined;
        if (typeof data?.reasoning_content === 'string') {
          if (open) {
            const message = assistantMessage(text, refusal, toolCalls, reasoning);
            if (message) messages.push(message);
            open = false;
          }
          pendingReasoning = data.reasoning_content;
        }
        break;
      }
      default:
        // Hosted-tool items, compaction, item references: Chat Completions cannot represent them.
        break;
    }
  }
  if (open) {
    const message = assistantMessage(text, refusal, toolCalls, reasoning);
    if (message) messages.push(message);
  }
  if (media) messages.push(mediaMessage(media));
  if (lateHead === undefined) return messages;
  // concat, not spread: a long history is copied at memcpy speed.
  return messages.slice(0, headLength).concat(lateHead, messages.slice(headLength));
}

/** The assembled assistant message, or `undefined` when it would say nothing. */
function assistantMessage(
  text: string | undefined,
  refusal: string | undefined,
  toolCalls: ChatCompletionMessageToolCall[] | undefined,
  reasoning: string | undefined,
): ChatCompletionMessageParam | undefined {
  const hasText = text !== undefined && text !== '';
  if (!hasText && refusal === undefined && toolCalls === undefined) return undefined;
  const content = hasText ? text : toolCalls === undefined ? (refusal ?? null) : null;
  // The common shapes as whole literals (no property added after creation).
  if (refusal === undefined && reasoning === undefined)
    return (
      toolCalls === undefined
        ? { role: 'assistant', content }
        : { role: 'assistant', content, tool_calls: toolCalls }
    ) as ChatCompletionMessageParam;
  const message: Record<string, unknown> = { role: 'assistant', content };
  if (refusal !== undefined) message.refusal = refusal;
  if (toolCalls !== undefined) message.tool_calls = toolCalls;
  if (reasoning !== undefined) message.reasoning_content = reasoning;
  return message as unknown as ChatCompletionMessageParam;
}

/** One user message with the media of the turn's tool outputs, each after a line naming its call. */
function mediaMessage(media: Media[]): ChatCompletionMessageParam {
  const content: ChatCompletionContentPart[] = [];
  for (const m of media)
    content.push(
      { type: 'text', text: `Attachments from the output of tool call ${m.callId}:` },
      ...m.parts,
    );
  return { role: 'user', content };
}

function assistantText(
  content: MessageItem['content'],
  providerId: string,
): { text?: string; refusal?: string } {
  if (typeof content === 'string') return { text: content };
  let text: string | undefined;
  let refusal: string | undefined;
  for (const part of content) {
    // Not a part at all (only a broken item has one): the caller names the item.
    if (typeof part !== 'object' || part === null) throw new TypeError('not a content part');
    if (part.type === 'output_text' || part.type === 'input_text')
      text = (text ?? '') + field(part, 'text', providerId);
    else if (part.type === 'refusal')
      refusal = (refusal ?? '') + field(part, 'refusal', providerId);
  }
  return { text, refusal };
}

/** The string field a part's type requires; `UserError` naming the part when it is missing. */
function field(part: ContentPart, name: 'text' | 'refusal', providerId: string): string {
  const value = (part as unknown as Record<string, unknown>)[name];
  if (typeof value === 'string') return value;
  throw new UserError(
    `A "${part.type}" content part has no string "${name}" (got ${value === undefined ? 'none' : typeof value}), so it cannot be sent to Chat Completions (provider "${providerId}"). Fix the item in the input or session history.`,
  );
}

function optionalString(part: ContentPart, name: string, providerId: string): string | undefined {
  const value = (part as unknown as Record<string, unknown>)[name];
  if (value === undefined || value === null || typeof value === 'string') return value ?? undefined;
  throw new UserError(
    `The "${name}" of a "${part.type}" content part must be a string (got ${typeof value}); provider "${providerId}" cannot send it. Fix the item in the input or session history.`,
  );
}

function textOnly(message: MessageItem, providerId: string): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((part) => {
      if (part.type === 'input_text' || part.type === 'output_text')
        return field(part, 'text', providerId);
      if (part.type === 'refusal') return field(part, 'refusal', providerId);
      throw new UserError(
        `A ${message.role} message holds an "${part.type}" part, which Chat Completions (provider "${providerId}") does not accept in ${message.role} messages. Move it to a user message.`,
      );
    })
    .join('\n');
}

function userContent(
  content: MessageItem['content'],
  providerId: string,
): string | ChatCompletionContentPart[] {
  if (typeof content === 'string') return content;
  // One text part (what most user input is): its text, without the part list below.
  if (content.length === 1) {
    const part = content[0]!;
    if (
      (part.type === 'input_text' || part.type === 'output_text') &&
      typeof part.text === 'string'
    )
      return part.text;
  }
  const parts = content.map((p) => toChatPart(p, providerId));
  // Text-only lists become one string: many OpenAI-compatible servers accept only string content.
  if (parts.every((p) => p.type === 'text'))
    return parts.map((p) => (p as { text: string }).text).join('\n');
  return parts;
}

function toolOutput(
  output: string | ContentPart[],
  providerId: string,
): { text: string; parts: ChatCompletionContentPart[] } {
  if (typeof output === 'string') return { text: output, parts: [] };
  const texts: string[] = [];
  const parts: ChatCompletionContentPart[] = [];
  for (const part of output) {
    const converted = toChatPart(part, providerId);
    if (converted.type === 'text') texts.push(converted.text);
    else parts.push(converted);
  }
  return { text: texts.join('\n'), parts };
}

function toChatPart(part: ContentPart, providerId: string): ChatCompletionContentPart {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: field(part, 'text', providerId) };
    case 'refusal':
      return { type: 'text', text: field(part, 'refusal', providerId) };
    case 'input_image': {
      const imageUrl = optionalString(part, 'image_url', providerId);
      const detail = optionalString(part, 'detail', providerId);
      if (!imageUrl) {
        throw new UserError(
          `An input_image given only by file_id cannot be sent to Chat Completions (provider "${providerId}"): image_url parts need an http(s) or data: URL. Pass image_url instead.`,
        );
      }
      return {
        type: 'image_url',
        image_url: detail
          ? { url: imageUrl, detail: detail as 'auto' | 'low' | 'high' }
          : { url: imageUrl },
      };
    }
    case 'input_file': {
      const fileData = optionalString(part, 'file_data', providerId);
      const fileId = optionalString(part, 'file_id', providerId);
      const filename = optionalString(part, 'filename', providerId);
      if (!fileData && !fileId) {
        throw new UserError(
          `An input_file given only by file_url cannot be sent to Chat Completions (provider "${providerId}"): file parts take file_data (base64 data: URL) or file_id. Download the file and pass file_data.`,
        );
      }
      const file: { file_data?: string; file_id?: string; filename?: string } = {};
      if (fileData) file.file_data = fileData;
      if (fileId) file.file_id = fileId;
      if (filename) file.filename = filename;
      return { type: 'file', file };
    }
    default:
      throw new UserError(
        `Unknown content part type "${(part as { type?: unknown }).type}" for Chat Completions (provider "${providerId}").`,
      );
  }
}
