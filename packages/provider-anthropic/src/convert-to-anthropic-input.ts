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
import { inputItemError } from '@baton/provider-utils';

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
 * - A function call's `provider_data.anthropic.caller` (programmatic tool calling) goes back on
 *   its `tool_use` block — unless it names a server tool call that is not in the input (the API
 *   rejects such an orphaned caller), then it is left out.
 * - Empty text is never sent; a message left without blocks is not sent.
 *
 * @throws UserError for an `input_file` whose media type Anthropic cannot read, a `data:` URL
 *   whose base64 or `%` escapes do not decode, and content parts without the field their type
 *   needs (an `input_text` without a string `text`, …), and for an item the kernel's item check
 *   rejects (`null` content, a `null` part, …), naming it.
 */
export function convertToAnthropicInput(
  items: readonly Item[],
  systemInstructions?: string,
): AnthropicInput {
  try {
    return convertInput(items, systemInstructions);
  } catch (error) {
    throw inputItemError(error, items, 'the Anthropic Messages API');
  }
}

function convertInput(items: readonly Item[], systemInstructions?: string): AnthropicInput {
  // One pass, state in locals, no closure: this runs on the whole history every turn (bench P2).
  const system: string[] = [];
  if (systemInstructions && systemInstructions.trim() !== '') system.push(systemInstructions);
  const messages: { role: Role; content: Block[] }[] = [];
  let last: { role: Role; content: Block[] } | undefined;
  let callers = false;
  // A user message got a second block: its tool_result blocks may need reordering.
  let merged = false;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    let role: Role;
    let block: Block | undefined;
    let blocks: Block[] | undefined;
    switch (item.type) {
      case 'message': {
        const itemRole = item.role;
        if (itemRole === 'system' || itemRole === 'developer') {
          const text = partsToPlainText(item.content);
          if (text.trim() !== '') system.push(text);
          continue;
        }
        role = itemRole;
        const content = item.content;
        if (typeof content === 'string') {
          if (content === '') continue;
          block = { type: 'text', text: content };
        } else if (
          content.length === 1 &&
          (content[0]!.type === 'output_text' || content[0]!.type === 'input_text') &&
          typeof content[0]!.text === 'string'
        ) {
          const text = content[0]!.text;
          if (text === '') continue;
          block = { type: 'text', text };
        } else {
          blocks = contentToBlocks(content, role);
          if (blocks.length === 0) continue;
        }
        break;
      }
      case 'function_call': {
        role = 'assistant';
        block = toolUseBlock(item);
        if (!callers) callers = 'caller' in block;
        break;
      }
      case 'function_call_output': {
        role = 'user';
        const id = safeId(item.call_id);
        const content = toolResultContent(item.output);
        block =
          content === undefined
            ? { type: 'tool_result', tool_use_id: id }
            : { type: 'tool_result', tool_use_id: id, content };
        break;
      }
      case 'reasoning': {
        role = 'assistant';
        block = thinkingBlock(item);
        if (!block) continue;
        break;
      }
      default: {
        const data = (item as { provider_data?: Record<string, unknown> }).provider_data?.[
          ANTHROPIC_PROVIDER_ID
        ];
        if (!isBlock(data)) continue;
        role = 'assistant';
        block = data as Block;
      }
    }
    // Consecutive items of one role go into one message (Anthropic needs alternating roles).
    if (last !== undefined && last.role === role) {
      if (block) last.content.push(block);
      else for (const b of blocks!) last.content.push(b);
      if (role === 'user') merged = true;
    } else {
      last = { role, content: block ? [block] : blocks! };
      messages.push(last);
    }
  }
  if (merged) orderToolResults(messages);
  if (callers) dropOrphanedCallers(messages);
  return { system, messages };
}

/** Removes `caller`s that point at a server tool call no message holds. */
function dropOrphanedCallers(messages: { role: Role; content: Block[] }[]): void {
  const serverCalls = new Set<string>();
  for (const m of messages)
    for (const b of m.content as { type: string; id?: unknown }[])
      if (b.type === 'server_tool_use' && typeof b.id === 'string') serverCalls.add(b.id);
  for (const m of messages) {
    for (const b of m.content as {
      type: string;
      caller?: { type?: unknown; tool_id?: unknown };
    }[]) {
      if (b.type !== 'tool_use' || !b.caller) continue;
      const toolId = b.caller.tool_id;
      if (typeof toolId === 'string' && !serverCalls.has(toolId)) delete b.caller;
    }
  }
}

/** Whether `id` matches `^[a-zA-Z0-9_-]+$` (a loop: ~5× faster than the regex on short ids). */
function isSafeId(id: string): boolean {
  const n = id.length;
  if (n === 0) return false;
  for (let i = 0; i < n; i++) {
    const c = id.charCodeAt(i);
    // 0-9, A-Z, a-z, '_', '-'
    if (
      !(
        (c >= 97 && c <= 122) ||
        (c >= 65 && c <= 90) ||
        (c >= 48 && c <= 57) ||
        c === 95 ||
        c === 45
      )
    )
      return false;
  }
  return true;
}

/** Anthropic ids must match `^[a-zA-Z0-9_-]+$`; ids from other providers are made to fit. */
function safeId(id: string): string {
  if (isSafeId(id)) return id;
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

/**
 * The parsed `arguments` of a call, kept per item: a run sends the same transcript items turn
 * after turn, so each call's arguments are parsed once (while they stay the same string).
 */
const parsedInputs = new WeakMap<FunctionCallItem, { args: string; input: unknown }>();

function toolUseBlock(item: FunctionCallItem): Block {
  const cached = parsedInputs.get(item);
  let input: unknown;
  if (cached?.args === item.arguments) input = cached.input;
  else {
    try {
      // Whitespace-only arguments do not parse either: `{}` like invalid JSON.
      input = JSON.parse(item.arguments);
    } catch {
      input = {};
    }
    if (typeof input !== 'object' || input === null || Array.isArray(input)) input = {};
    parsedInputs.set(item, { args: item.arguments, input });
  }
  const block: Record<string, unknown> = {
    type: 'tool_use',
    id: safeId(item.call_id),
    name: item.name,
    input,
  };
  const caller = (item.provider_data?.[ANTHROPIC_PROVIDER_ID] as { caller?: unknown } | undefined)
    ?.caller;
  if (isBlock(caller)) block.caller = { ...caller };
  return block as unknown as Block;
}

function thinkingBlock(item: ReasoningItem): Block | undefined {
  const raw: unknown = item.provider_data?.[ANTHROPIC_PROVIDER_ID];
  if (!isBlock(raw)) return undefined;
  const data = raw as { type: string; signature?: unknown; data?: unknown };
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

/** The string field a part's type requires; `UserError` naming the part when it is missing. */
function field(part: ContentPart, name: 'text' | 'refusal'): string {
  const value = (part as unknown as Record<string, unknown>)[name];
  if (typeof value === 'string') return value;
  throw new UserError(
    `A "${part.type}" content part has no string "${name}" (got ${value === undefined ? 'none' : typeof value}), so it cannot be sent to Anthropic. Fix the item in the input or session history.`,
  );
}

/** An optional string field of a part; `UserError` when it is there but not a string. */
function optional(part: ContentPart, name: string): string | undefined {
  const value = (part as unknown as Record<string, unknown>)[name];
  if (value === undefined || value === null || typeof value === 'string') return value ?? undefined;
  throw new UserError(
    `The "${name}" of a "${part.type}" content part must be a string (got ${typeof value}); it cannot be sent to Anthropic. Fix the item in the input or session history.`,
  );
}

function partsToPlainText(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content
    .map((p) =>
      typeof p !== 'object' || p === null
        ? notAPart()
        : p.type === 'input_text' || p.type === 'output_text'
          ? field(p, 'text')
          : p.type === 'refusal'
            ? field(p, 'refusal')
            : '',
    )
    .filter((t) => t !== '')
    .join('\n');
}

/** For a value that is not a content part (only a broken item has one): the caller names the item. */
function notAPart(): never {
  throw new TypeError('not a content part');
}

function contentToBlocks(content: string | ContentPart[], role: Role): Block[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const blocks: Block[] = [];
  for (const part of content) {
    if (typeof part !== 'object' || part === null) notAPart();
    const block = partToBlock(part, role);
    if (block) blocks.push(block);
  }
  return blocks;
}

function partToBlock(part: ContentPart, role: Role): Block | undefined {
  switch (part.type) {
    case 'input_text':
    case 'output_text': {
      const text = field(part, 'text');
      return text === '' ? undefined : { type: 'text', text };
    }
    case 'refusal': {
      const refusal = field(part, 'refusal');
      return refusal === '' ? undefined : { type: 'text', text: refusal };
    }
    case 'input_image':
      return role === 'user'
        ? imageBlock(optional(part, 'image_url'), optional(part, 'file_id'))
        : undefined;
    case 'input_file':
      return role === 'user' ? documentBlock(part) : undefined;
    default:
      return undefined;
  }
}

const DATA_URL = /^data:([^;,]+)?(;[^,]*)?,(.*)$/s;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The payload of a `data:` URL as base64 (what Anthropic's `base64` sources take): a `;base64`
 * payload is checked and passed on; a %-encoded one is decoded to bytes and encoded.
 * @throws UserError for base64 that is not base64 and for malformed %-escapes.
 */
function dataUrlBase64(m: RegExpExecArray, what: string): string {
  const payload = m[3];
  if ((m[2] ?? '').includes('base64')) {
    const compact = payload.replace(/\s+/g, '');
    if (compact.length % 4 === 1 || !BASE64.test(compact)) {
      throw new UserError(
        `The data: URL of ${what} says base64 but its data is not valid base64, so it cannot be sent to Anthropic. Encode the bytes with base64 (e.g. Buffer.from(bytes).toString('base64')).`,
      );
    }
    return compact;
  }
  const bytes = percentDecode(payload, what);
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return btoa(binary);
}

/** The bytes of a %-encoded `data:` payload (other characters as UTF-8). */
function percentDecode(text: string, what: string): Uint8Array {
  const out: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch !== '%') {
      const code = text.codePointAt(i)!;
      if (code > 0xffff) i++;
      out.push(...encoder.encode(String.fromCodePoint(code)));
      continue;
    }
    const hex = text.slice(i + 1, i + 3);
    if (!/^[0-9a-fA-F]{2}$/.test(hex)) {
      throw new UserError(
        `The data: URL of ${what} has a malformed %-escape ("%${hex}" at ${i}), so it cannot be sent to Anthropic. Percent-encode it with encodeURIComponent, or use ";base64".`,
      );
    }
    out.push(Number.parseInt(hex, 16));
    i += 2;
  }
  return Uint8Array.from(out);
}

function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function imageBlock(
  url: string | undefined,
  fileId: string | undefined,
): ImageBlockParam | undefined {
  if (fileId) return { type: 'image', source: { type: 'file', file_id: fileId } };
  if (!url) return undefined;
  const m = DATA_URL.exec(url);
  if (m) {
    const mediaType = (m[1] ?? 'image/png') as 'image/png';
    const data = dataUrlBase64(m, 'an input_image');
    return { type: 'image', source: { type: 'base64', media_type: mediaType, data } };
  }
  return { type: 'image', source: { type: 'url', url } };
}

function documentBlock(
  part: Extract<ContentPart, { type: 'input_file' }>,
): DocumentBlockParam | undefined {
  const filename = optional(part, 'filename');
  const fileId = optional(part, 'file_id');
  const fileUrl = optional(part, 'file_url');
  const fileData = optional(part, 'file_data');
  const title = filename ? { title: filename } : {};
  if (fileId) return { type: 'document', source: { type: 'file', file_id: fileId }, ...title };
  if (fileUrl) return { type: 'document', source: { type: 'url', url: fileUrl }, ...title };
  if (!fileData) return undefined;
  const what = `input_file${filename ? ` "${filename}"` : ''}`;
  // A bare string is base64 PDF data (the Responses API's file_data without a data: prefix).
  const m = DATA_URL.exec(fileData) ?? DATA_URL.exec(`data:application/pdf;base64,${fileData}`)!;
  const mediaType = m[1] ?? 'application/octet-stream';
  if (mediaType === 'application/pdf') {
    return {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: dataUrlBase64(m, what) },
      ...title,
    };
  }
  if (mediaType === 'text/plain') {
    const data = new TextDecoder().decode(base64ToBytes(dataUrlBase64(m, what)));
    return {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data },
      ...title,
    };
  }
  throw new UserError(
    `Anthropic cannot read ${what} of media type "${mediaType}". Send a PDF or text/plain file, or an image as input_image.`,
  );
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
    // One block is in order; so are blocks without any tool_result.
    if (msg.role !== 'user' || msg.content.length < 2) continue;
    if (!msg.content.some((b) => b.type === 'tool_result')) continue;
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
