/**
 * Converts Baton items (OpenAI Responses API shapes) to the message format of the OpenTelemetry
 * GenAI semantic conventions v1.41.0: `gen_ai.input.messages`, `gen_ai.output.messages` and
 * `gen_ai.system_instructions` (`docs/gen-ai/gen-ai-input-messages.json`,
 * `gen-ai-output-messages.json`, `gen-ai-system-instructions.json`).
 */

/** One part of a GenAI message (`text`, `tool_call`, `tool_call_response`, `reasoning`, …). */
export type GenAiPart = { type: string; [field: string]: unknown };

/** A GenAI chat message: `{ role, parts }`, plus `finish_reason` on output messages. */
export interface GenAiMessage {
  role: string;
  parts: GenAiPart[];
  finish_reason?: string;
}

type AnyItem = { type?: unknown; [field: string]: unknown };

/**
 * Input items → GenAI input messages, in order. A `message` item starts a new message; function
 * calls, reasoning and hosted-tool items join the preceding message of the same role (an assistant
 * turn is one message); every `function_call_output` is its own `tool` message. Items that are
 * not objects are skipped.
 */
export function toGenAiInputMessages(items: readonly unknown[]): GenAiMessage[] {
  const messages: GenAiMessage[] = [];
  let current: (GenAiMessage & { hasMessageItem: boolean }) | undefined;
  for (const raw of items) {
    if (!raw || typeof raw !== 'object') continue;
    const item = raw as AnyItem;
    const role = roleOf(item);
    const isMessage = item.type === 'message';
    const startsNew =
      !current || current.role !== role || role === 'tool' || (isMessage && current.hasMessageItem);
    if (startsNew) {
      current = { role, parts: [], hasMessageItem: false };
      messages.push(current);
    }
    current!.parts.push(...partsOf(item));
    if (isMessage) current!.hasMessageItem = true;
  }
  return messages.map(({ role, parts }) => ({ role, parts }));
}

/**
 * Output items of one model response → GenAI output messages: one `assistant` message holding
 * every part, with `finish_reason` `tool_call` when the model asked for a function call, `stop`
 * otherwise.
 */
export function toGenAiOutputMessages(items: readonly unknown[]): GenAiMessage[] {
  const parts: GenAiPart[] = [];
  for (const raw of items)
    if (raw && typeof raw === 'object') parts.push(...partsOf(raw as AnyItem));
  return [{ role: 'assistant', parts, finish_reason: genAiFinishReason(items) }];
}

/** `tool_call` when the output items hold a function call, else `stop` (a GenAI finish reason). */
export function genAiFinishReason(items: readonly unknown[]): 'tool_call' | 'stop' {
  for (const item of items)
    if ((item as { type?: unknown } | null)?.type === 'function_call') return 'tool_call';
  return 'stop';
}

/** System instructions → GenAI system instructions (`[{ type: 'text', content }]`). */
export function toGenAiSystemInstructions(text: string): GenAiPart[] {
  return [{ type: 'text', content: text }];
}

/** Parses a JSON string when it is valid JSON; otherwise returns the string unchanged. */
export function parseJsonLoose(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function roleOf(item: AnyItem): string {
  if (item.type === 'message') return typeof item.role === 'string' ? item.role : 'user';
  if (item.type === 'function_call_output') return 'tool';
  if (typeof item.type === 'string' && item.type.endsWith('_output')) return 'tool';
  return 'assistant';
}

function partsOf(item: AnyItem): GenAiPart[] {
  switch (item.type) {
    case 'message':
      return contentParts(item.content);
    case 'function_call':
      return [
        {
          type: 'tool_call',
          id: item.call_id,
          name: item.name,
          arguments:
            typeof item.arguments === 'string' ? parseJsonLoose(item.arguments) : item.arguments,
        },
      ];
    case 'function_call_output':
      return [{ type: 'tool_call_response', id: item.call_id, result: outputOf(item.output) }];
    case 'reasoning': {
      const texts = [...textsOf(item.summary), ...textsOf(item.content)];
      return texts.length > 0 ? [{ type: 'reasoning', content: texts.join('\n') }] : [];
    }
    default:
      return [{ type: String(item.type), ...(typeof item.id === 'string' ? { id: item.id } : {}) }];
  }
}

function contentParts(content: unknown): GenAiPart[] {
  if (typeof content === 'string') return [{ type: 'text', content }];
  if (!Array.isArray(content)) return [];
  const parts: GenAiPart[] = [];
  for (const p of content as AnyItem[]) {
    if (!p || typeof p !== 'object') continue;
    if (p.type === 'input_text' || p.type === 'output_text')
      parts.push({ type: 'text', content: String(p.text ?? '') });
    else if (p.type === 'refusal')
      parts.push({ type: 'refusal', content: String(p.refusal ?? '') });
    else if (p.type === 'input_image') parts.push(mediaPart('image', p.image_url, p.file_id));
    else if (p.type === 'input_file')
      parts.push(mediaPart('document', p.file_data ?? p.file_url, p.file_id));
    else parts.push({ type: String(p.type) });
  }
  return parts;
}

/** A `blob` (data: URL), `uri` (any other URL) or `file` (provider file id) part. */
function mediaPart(modality: string, url: unknown, fileId: unknown): GenAiPart {
  if (typeof url === 'string') {
    const data = /^data:([^;,]+)?(?:;[^,]*)?,(.*)$/s.exec(url);
    if (data) return { type: 'blob', modality, mime_type: data[1] ?? null, content: data[2] };
    return { type: 'uri', modality, uri: url };
  }
  if (typeof fileId === 'string') return { type: 'file', modality, file_id: fileId };
  return { type: modality };
}

function outputOf(output: unknown): unknown {
  if (typeof output === 'string') return parseJsonLoose(output);
  if (Array.isArray(output)) return contentParts(output);
  return output ?? null;
}

function textsOf(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list
    .map((p: AnyItem) => (typeof p?.text === 'string' ? p.text : ''))
    .filter((t) => t.length > 0);
}
