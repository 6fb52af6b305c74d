/**
 * Kernel items (OpenAI Responses item shapes) → Anthropic Messages API `system` + `messages`.
 * Source of the target format: https://docs.anthropic.com/en/api/messages.
 */
import type {
  ContentBlockParam,
  DocumentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import {
  type ContentPart,
  type FunctionCallItem,
  type Item,
  type ReasoningItem,
  UserError,
} from '@baton/kernel';

/** The provider id under which Anthropic data lives in `provider_data`. */
export const ANTHROPIC_PROVIDER_ID = 'anthropic';

/** What {@link convertToAnthropicInput} returns. */
export interface AnthropicInput {
  /** System text segments, in order: `systemInstructions` first, then system/developer messages. */
  system: string[];
  /** Messages with strictly alternating roles. */
  messages: MessageParam[];
}

type Role = 'user' | 'assistant';
type Block = ContentBlockParam;

/**
 * Converts a transcript to Anthropic input.
 *
 * - `systemInstructions` and every `system`/`developer` message go to `system` (in order).
 * - Consecutive items of one role are merged into one message, so roles alternate.
 * - `function_call` → `tool_use` (`id` = `call_id`, `input` = the parsed `arguments`; arguments
 *   that are not a JSON object — invalid JSON included — are sent as `{}` so the request stays
 *   valid; the tool's own output already told the model its arguments were invalid).
 * - `function_call_output` → `tool_result`; within a user message all `tool_result` blocks come
 *   first, in the order of the `tool_use` blocks of the preceding assistant message.
 * - Reasoning items are sent only when they carry `provider_data.anthropic` (`thinking` with
 *   its `signature`, or `redacted_thinking` with its `data`), byte for byte; reasoning from other
 *   providers is dropped. Hosted items are sent (verbatim) only when they carry
 *   `provider_data.anthropic` (the original server-tool block); others are dropped.
 * - Empty text is never sent; a message left without blocks is not sent.
 *
 * @throws UserError for an `input_file` whose media type Anthropic cannot read.
 */
export function convertToAnthropicInput(
  items: readonly Item[],
  systemInstructions?: string,
): AnthropicInput {
  const system: string[] = [];
  if (systemInstructions && systemInstructions.trim() !== '') system.push(systemInstructions);
  const messages: { role: Role; content: Block[] }[] = [];
  const push = (role: Role, blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = messages[messages.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks.slice() });
  };
  for (const item of items) {
    switch (item.type) {
      case 'message': {
        if (item.role === 'system' || item.role === 'developer') {
          const text = partsToPlainText(item.content);
          if (text.trim() !== '') system.push(text);
        } else {
          push(item.role, contentToBlocks(item.content, item.role));
        }
        break;
      }
      case 'function_call':
        push('assistant', [toolUseBlock(item)]);
        break;
      case 'function_call_output': {
        const result: ToolResultBlockParam = {
          type: 'tool_result',
          tool_use_id: safeId(item.call_id),
        };
        const content = toolResultContent(item.output);
        if (content !== undefined) result.content = content;
        push('user', [result]);
        break;
      }
      case 'reasoning': {
        const block = thinkingBlock(item);
        if (block) push('assistant', [block]);
        break;
      }
      default: {
        const data = (item as { provider_data?: Record<string, unknown> }).provider_data?.[
          ANTHROPIC_PROVIDER_ID
        ];
        if (isBlock(data)) push('assistant', [data as Block]);
      }
    }
  }
  orderToolResults(messages);
  return { system, messages };
}

/** Anthropic ids must match `^[a-zA-Z0-9_-]+$`; ids from other providers are made to fit. */
function safeId(id: string): string {
  const cleaned = id.replace(/[^a-zA-Z0-9_-]/g, '_');
  return cleaned === '' ? 'call' : cleaned;
}

function isBlock(value: unknown): value is { type: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string'
  );
}

function toolUseBlock(item: FunctionCallItem): Block {
  let input: unknown;
  try {
    input = item.arguments.trim() === '' ? {} : JSON.parse(item.arguments);
  } catch {
    input = {};
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) input = {};
  return { type: 'tool_use', id: safeId(item.call_id), name: item.name, input };
}

function thinkingBlock(item: ReasoningItem): Block | undefined {
  const data = item.provider_data?.[ANTHROPIC_PROVIDER_ID] as
    | { type?: string; signature?: string; data?: string }
    | undefined;
  if (!data) return undefined;
  if (data.type === 'redacted_thinking' && typeof data.data === 'string')
    return { type: 'redacted_thinking', data: data.data };
  if (data.type === 'thinking' && typeof data.signature === 'string') {
    return {
      type: 'thinking',
      thinking: item.summary.map((s) => s.text).join(''),
      signature: data.signature,
    };
  }
  return undefined;
}

function partsToPlainText(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content
    .map((p) =>
      p.type === 'input_text' || p.type === 'output_text'
        ? p.text
        : p.type === 'refusal'
          ? p.refusal
          : '',
    )
    .filter((t) => t !== '')
    .join('\n');
}

function contentToBlocks(content: string | ContentPart[], role: Role): Block[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const blocks: Block[] = [];
  for (const part of content) {
    const block = partToBlock(part, role);
    if (block) blocks.push(block);
  }
  return blocks;
}

function partToBlock(part: ContentPart, role: Role): Block | undefined {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return part.text === '' ? undefined : { type: 'text', text: part.text };
    case 'refusal':
      return part.refusal === '' ? undefined : { type: 'text', text: part.refusal };
    case 'input_image':
      return role === 'user' ? imageBlock(part.image_url, part.file_id) : undefined;
    case 'input_file':
      return role === 'user' ? documentBlock(part) : undefined;
    default:
      return undefined;
  }
}

const DATA_URL = /^data:([^;,]+)?(;[^,]*)?,(.*)$/s;

function imageBlock(
  url: string | undefined,
  fileId: string | undefined,
): ImageBlockParam | undefined {
  if (fileId) return { type: 'image', source: { type: 'file', file_id: fileId } };
  if (!url) return undefined;
  const m = DATA_URL.exec(url);
  if (m) {
    const mediaType = (m[1] ?? 'image/png') as 'image/png';
    return { type: 'image', source: { type: 'base64', media_type: mediaType, data: m[3] } };
  }
  return { type: 'image', source: { type: 'url', url } };
}

function documentBlock(
  part: Extract<ContentPart, { type: 'input_file' }>,
): DocumentBlockParam | undefined {
  const title = part.filename ? { title: part.filename } : {};
  if (part.file_id)
    return { type: 'document', source: { type: 'file', file_id: part.file_id }, ...title };
  if (part.file_url)
    return { type: 'document', source: { type: 'url', url: part.file_url }, ...title };
  if (!part.file_data) return undefined;
  const m = DATA_URL.exec(part.file_data);
  const mediaType = m ? (m[1] ?? 'application/octet-stream') : 'application/pdf';
  const payload = m ? m[3] : part.file_data;
  const isBase64 = m ? (m[2] ?? '').includes('base64') : true;
  if (mediaType === 'application/pdf') {
    return {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: payload },
      ...title,
    };
  }
  if (mediaType === 'text/plain') {
    const text = isBase64 ? decodeBase64Utf8(payload) : decodeURIComponent(payload);
    return {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: text },
      ...title,
    };
  }
  throw new UserError(
    `Anthropic cannot read input_file${part.filename ? ` "${part.filename}"` : ''} of media type "${mediaType}". Send a PDF or text/plain file, or an image as input_image.`,
  );
}

function decodeBase64Utf8(base64: string): string {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}

function toolResultContent(
  output: string | ContentPart[],
): ToolResultBlockParam['content'] | undefined {
  if (typeof output === 'string') return output === '' ? undefined : output;
  const blocks: NonNullable<Exclude<ToolResultBlockParam['content'], string>> = [];
  for (const part of output) {
    const block = partToBlock(part, 'user');
    if (block && (block.type === 'text' || block.type === 'image' || block.type === 'document')) {
      blocks.push(block as TextBlockParam | ImageBlockParam | DocumentBlockParam);
    }
  }
  return blocks.length === 0 ? undefined : blocks;
}

/**
 * In every user message, puts `tool_result` blocks first, ordered like the `tool_use` blocks of
 * the assistant message before it (the API requires results first; the kernel's order is kept
 * for results it cannot place).
 */
function orderToolResults(messages: { role: Role; content: Block[] }[]): void {
  for (let i = 1; i < messages.length; i++) {
    const msg = messages[i];
    if (msg.role !== 'user' || !msg.content.some((b) => b.type === 'tool_result')) continue;
    const order = new Map<string, number>();
    for (const b of messages[i - 1].content) if (b.type === 'tool_use') order.set(b.id, order.size);
    const rank = (b: Block) =>
      b.type === 'tool_result'
        ? (order.get(b.tool_use_id) ?? order.size)
        : Number.POSITIVE_INFINITY;
    msg.content = msg.content
      .map((b, at) => ({ b, at }))
      .sort((x, y) => rank(x.b) - rank(y.b) || x.at - y.at)
      .map((x) => x.b);
  }
}
