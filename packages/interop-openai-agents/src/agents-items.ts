/**
 * `@openai/agents` protocol items (camelCase, `function_call_result`, `hosted_tool_call`, …; see
 * their `packages/agents-core/src/types/protocol.ts`) → Baton items (the OpenAI Responses API
 * input item shapes). Each item becomes what `@openai/agents-openai`'s Responses model sends for
 * it on the wire: `callId` → `call_id`, `function_call_result` → `function_call_output` (its
 * output as text or `input_*` parts), reasoning `content` → `summary`, a `hosted_tool_call` →
 * the hosted item in its `providerData` (`web_search_call`, `mcp_call`, …), and every other
 * `providerData` field spread onto the item in snake_case. Items that already have the
 * Responses shape pass through.
 */
import { type ContentPart, type Item, UserError } from '@baton/kernel';

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';

/** The id `@openai/agents` puts on items made without a provider id (never sent). */
const FAKE_ID = 'FAKE_ID';

/** Item types that only exist in the Responses shape (passed through as they are). */
const RESPONSES_ONLY = new Set([
  'function_call_output',
  'web_search_call',
  'file_search_call',
  'code_interpreter_call',
  'image_generation_call',
  'computer_call_output',
  'local_shell_call',
  'local_shell_call_output',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'item_reference',
  'custom_tool_call',
  'custom_tool_call_output',
]);

/** camelCase keys → snake_case, recursively through objects (arrays are copied as they are). */
export function toSnakeCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice();
  if (!isRec(value)) return value;
  const out: Rec = {};
  for (const [key, entry] of Object.entries(value))
    out[key.replace(/([A-Z])/g, '_$1').toLowerCase()] = toSnakeCase(entry);
  return out;
}

/** `providerData` as extra snake_case fields, without the fields the item sets itself. */
function extra(providerData: unknown, reserved: string[]): Rec {
  const data = toSnakeCase(providerData);
  if (!isRec(data)) return {};
  for (const key of reserved) delete data[key];
  return data;
}

/** Drops `undefined` fields and the placeholder id. */
function clean(item: Rec): Item {
  for (const [key, value] of Object.entries(item)) if (value === undefined) delete item[key];
  if (item.id === FAKE_ID) delete item.id;
  return item as unknown as Item;
}

function fail(where: string, what: string): never {
  throw new UserError(
    `Cannot convert the @openai/agents item at ${where}: ${what}. @baton/interop-openai-agents reads the item types of @openai/agents 0.x up to 0.20 (protocol.ts); convert or drop this item before importing.`,
  );
}

function inline(data: unknown, mediaType: unknown): string | undefined {
  if (!isStr(data) || data === '') return undefined;
  if (data.startsWith('data:')) return data;
  return isStr(mediaType) ? `data:${mediaType};base64,${data}` : data;
}

/**
 * A protocol `input_text` / `input_image` / `input_file` part → the Responses part (an image
 * of a message gets `detail: 'auto'` when it has none, as their model sends it).
 */
function inputPart(part: unknown, where: string, inMessage = false): ContentPart {
  if (!isRec(part)) fail(where, 'a content part is not an object');
  const pd = (reserved: string[]) => extra(part.providerData, reserved);
  const cache = part.promptCacheBreakpoint
    ? { prompt_cache_breakpoint: part.promptCacheBreakpoint }
    : {};
  if (part.type === 'input_text') {
    if (!isStr(part.text)) fail(where, 'an input_text part has no text');
    return { type: 'input_text', text: part.text, ...cache, ...pd(['type', 'text']) };
  }
  if (part.type === 'input_image') {
    const image = part.image ?? part.imageUrl;
    const out: Rec = {
      type: 'input_image',
      detail: part.detail ?? (inMessage ? 'auto' : undefined),
    };
    if (isStr(image)) out.image_url = image;
    else if (isRec(image) && isStr(image.id)) out.file_id = image.id;
    if (isStr(part.fileId)) out.file_id = part.fileId;
    return clean({ ...out, ...cache, ...pd(['type', 'detail', 'image_url', 'file_id']) }) as never;
  }
  if (part.type === 'input_file') {
    const out: Rec = { type: 'input_file', filename: part.filename };
    const file = part.file;
    if (isStr(file)) {
      const value = file.trim();
      if (/^https?:\/\//.test(value)) out.file_url = value;
      else out.file_data = value;
    } else if (isRec(file) && isStr(file.id)) out.file_id = file.id;
    else if (isRec(file) && isStr(file.url)) out.file_url = file.url;
    for (const [from, to] of [
      ['fileData', 'file_data'],
      ['fileUrl', 'file_url'],
      ['fileId', 'file_id'],
    ])
      if (isStr(part[from])) out[to] = part[from];
    return clean({
      ...out,
      ...cache,
      ...pd(['type', 'file_data', 'file_url', 'file_id', 'filename']),
    }) as never;
  }
  fail(where, `content part type "${String(part.type)}" has no Responses input form`);
}

/** A legacy tool output object (`{ type: 'image' | 'file', … }`) → one Responses part. */
function legacyOutputPart(output: Rec, where: string): ContentPart {
  if (output.type === 'image') {
    const image = output.image;
    let ref: unknown;
    if (isStr(image) && image !== '') ref = image;
    else if (isRec(image)) {
      ref = isStr(image.url)
        ? image.url
        : (inline(image.data, image.mediaType ?? output.mediaType) ??
          ((isStr(image.fileId) && { id: image.fileId }) || (isStr(image.id) && { id: image.id })));
    } else if (isStr(output.imageUrl)) ref = output.imageUrl;
    else if (isStr(output.fileId)) ref = { id: output.fileId };
    else ref = inline(output.data, output.mediaType);
    return inputPart(
      { type: 'input_image', image: ref || undefined, detail: output.detail },
      where,
    );
  }
  const file = output.file;
  let ref: unknown = file;
  if (isRec(file)) {
    ref =
      inline(file.data, file.mediaType ?? 'text/plain') ??
      (isStr(file.url) ? { url: file.url } : isStr(file.id) ? { id: file.id } : undefined) ??
      (isStr(file.fileId) ? { id: file.fileId } : undefined);
  }
  const filename = isRec(file) && isStr(file.filename) ? file.filename : output.filename;
  return inputPart({ type: 'input_file', file: ref, filename }, where);
}

/** A `function_call_result` output → a Responses `function_call_output.output`. */
function toolOutput(output: unknown, where: string): string | ContentPart[] {
  if (isStr(output)) return output;
  if (Array.isArray(output)) return output.map((p, i) => inputPart(p, `${where}.output[${i}]`));
  if (isRec(output)) {
    if (output.type === 'text' && isStr(output.text)) return output.text;
    if (output.type === 'image' || output.type === 'file') return [legacyOutputPart(output, where)];
  }
  fail(where, `a tool output of shape ${JSON.stringify(output)?.slice(0, 80)} is not known`);
}

function messageItem(item: Rec, where: string): Item {
  const reserved = ['type', 'id', 'role', 'content', 'status', 'phase'];
  const base = { type: 'message', id: item.id, role: item.role };
  if (item.role === 'assistant') {
    const pd = isRec(item.providerData) ? item.providerData : {};
    if (!Array.isArray(item.content)) fail(where, 'an assistant message has no content list');
    const content = item.content.map((part, i) => {
      if (!isRec(part)) fail(`${where}.content[${i}]`, 'not an object');
      const rest = (keys: string[]) => extra(part.providerData, keys);
      if (part.type === 'output_text') {
        const annotations = isRec(part.providerData) ? part.providerData.annotations : undefined;
        return {
          type: 'output_text',
          text: part.text,
          annotations: Array.isArray(annotations) ? annotations : [],
          ...rest(['type', 'text', 'annotations']),
        };
      }
      if (part.type === 'refusal')
        return { type: 'refusal', refusal: part.refusal, ...rest(['type', 'refusal']) };
      return fail(
        `${where}.content[${i}]`,
        `assistant content part "${String(part.type)}" is not known`,
      );
    });
    return clean({
      ...base,
      content,
      status: item.status,
      phase: item.phase ?? pd.phase,
      ...extra(item.providerData, reserved),
    });
  }
  if (item.role !== 'user' && item.role !== 'system' && item.role !== 'developer')
    fail(where, `message role "${String(item.role)}" is not known`);
  const content = isStr(item.content)
    ? item.content
    : Array.isArray(item.content)
      ? item.content.map((p, i) => inputPart(p, `${where}.content[${i}]`, true))
      : fail(where, 'a message has no content');
  return clean({ ...base, content, ...extra(item.providerData, reserved) });
}

const HOSTED_STATUS: Record<string, string> = {
  web_search_call: 'failed',
  file_search_call: 'failed',
  code_interpreter_call: 'failed',
  image_generation_call: 'failed',
};

/** A `hosted_tool_call` → the Responses hosted item its `providerData` holds. */
function hostedItem(item: Rec): Item {
  const pd = isRec(item.providerData) ? item.providerData : {};
  const caller = item.caller ? { caller: toCaller(item.caller) } : {};
  const kind = String(pd.type ?? item.name ?? '').replace(/^(web_search|file_search)$/, '$1_call');
  const base = { ...(toSnakeCase(pd) as Rec), type: kind, id: pd.id ?? item.id };
  switch (kind) {
    case 'web_search_call':
    case 'file_search_call':
    case 'code_interpreter_call':
    case 'image_generation_call':
      return clean({
        ...base,
        id: item.id,
        status: item.status ?? HOSTED_STATUS[kind],
        ...(kind === 'image_generation_call' ? { result: item.output ?? pd.result ?? null } : {}),
        ...(kind === 'code_interpreter_call' ? caller : {}),
      });
    case 'mcp_list_tools':
    case 'mcp_approval_request':
    case 'mcp_approval_response':
      return clean({ ...base, ...caller });
    case 'mcp_call':
      return clean({ ...base, output: item.output ?? pd.output, ...caller });
    default:
      // A hosted call of another provider: Baton's own `hosted_tool_call`, data kept as is.
      return clean({
        type: 'hosted_tool_call',
        id: item.id,
        name: item.name,
        arguments: item.arguments,
        status: item.status,
        output: item.output,
        provider_data: { 'openai-agents': pd },
      });
  }
}

function toCaller(caller: unknown): unknown {
  if (isRec(caller) && caller.type === 'program')
    return { type: 'program', caller_id: caller.callerId };
  return caller;
}

function callIdOf(item: Rec, where: string): string {
  const id = item.callId ?? item.call_id;
  if (!isStr(id)) fail(where, `a ${String(item.type)} item has no callId`);
  return id;
}

/**
 * One `@openai/agents` protocol item (a session row, `originalInput` entry or a run item's
 * `rawItem`) → a Baton item. `where` names it in errors (e.g. `session item 3`).
 * @throws UserError naming the item's place and type when it is not an object, has no known
 *   type, or misses what its type needs (a `callId`, message content, …).
 */
export function fromOpenAIAgentsItem(value: unknown, where = 'item'): Item {
  if (!isRec(value)) fail(where, 'not an object');
  const item = value;
  const type = item.type;
  const pd = (reserved: string[]) => extra(item.providerData, reserved);
  const caller = item.caller ? { caller: toCaller(item.caller) } : {};
  if (type === 'message' || (type === undefined && isStr(item.role)))
    return messageItem(item, where);
  if (isStr(type) && RESPONSES_ONLY.has(type)) return clean({ ...item });
  switch (type) {
    case 'function_call':
      return clean({
        type,
        id: item.id,
        call_id: callIdOf(item, where),
        name: item.name,
        arguments: item.arguments,
        status: item.status,
        namespace: item.namespace,
        ...caller,
        ...pd(['id', 'type', 'name', 'call_id', 'arguments', 'status', 'namespace', 'caller']),
      });
    case 'function_call_result':
      return clean({
        type: 'function_call_output',
        id: item.id,
        call_id: callIdOf(item, where),
        output: toolOutput(item.output, where),
        status: item.status,
        ...caller,
        ...pd(['type', 'id', 'call_id', 'output', 'status', 'namespace', 'caller']),
      });
    case 'reasoning': {
      const data = isRec(item.providerData) ? item.providerData : {};
      const encrypted = data.encryptedContent ?? data.encrypted_content;
      const summary = Array.isArray(item.content) ? item.content : [];
      return clean({
        type,
        id: item.id,
        summary: summary.map((c: any) => ({
          type: 'summary_text',
          text: String(c?.text ?? ''),
          ...extra(c?.providerData, ['type', 'text']),
        })),
        ...(Array.isArray(item.rawContent) && item.rawContent.length > 0
          ? {
              content: item.rawContent.map((c: any) => ({ type: 'reasoning_text', text: c?.text })),
            }
          : {}),
        ...(isStr(encrypted) ? { encrypted_content: encrypted } : {}),
        ...pd(['id', 'type', 'summary', 'encrypted_content', 'content']),
      });
    }
    case 'hosted_tool_call':
      return hostedItem(item);
    case 'computer_call': {
      const data = isRec(item.providerData) ? item.providerData : {};
      const checks = data.pendingSafetyChecks ?? data.pending_safety_checks;
      const actions =
        Array.isArray(item.actions) && item.actions.length > 0 ? item.actions : undefined;
      return clean({
        type,
        id: item.id,
        call_id: callIdOf(item, where),
        status: item.status,
        action: item.action ?? actions?.[0],
        actions,
        ...(Array.isArray(checks) && checks.length > 0 ? { pending_safety_checks: checks } : {}),
        ...pd(['type', 'call_id', 'id', 'action', 'actions', 'status', 'pending_safety_checks']),
      });
    }
    case 'computer_call_result': {
      const output = isRec(item.output) ? item.output : {};
      return clean({
        ...pd(['type', 'id', 'call_id', 'output']),
        type: 'computer_call_output',
        id: item.id,
        call_id: callIdOf(item, where),
        output: { type: 'computer_screenshot', image_url: output.data },
      });
    }
    case 'shell_call':
    case 'shell_call_output':
    case 'apply_patch_call':
    case 'apply_patch_call_output':
    case 'program':
    case 'program_output':
      return localToolItem(item, where);
    case 'tool_search_call':
    case 'tool_search_output':
      return clean({
        ...pd(['type', 'id', 'status', 'call_id', 'execution', 'arguments', 'tools']),
        type,
        id: item.id,
        status: item.status,
        call_id: item.callId ?? item.call_id,
        execution: item.execution,
        ...(type === 'tool_search_call'
          ? { arguments: item.arguments }
          : { tools: Array.isArray(item.tools) ? item.tools.map(searchTool) : [] }),
      });
    case 'compaction': {
      const encrypted = item.encrypted_content ?? item.encryptedContent;
      if (!isStr(encrypted)) fail(where, 'a compaction item has no encrypted_content');
      return clean({ type, id: item.id, encrypted_content: encrypted });
    }
    case 'unknown': {
      const data = toSnakeCase(item.providerData);
      if (!isRec(data) || !isStr(data.type))
        fail(where, 'an "unknown" item whose providerData has no type');
      return clean({ ...data, id: item.id ?? data.id });
    }
    default:
      fail(where, `item type "${String(type)}" is not known`);
  }
}

/** A tool search output's tool entry in the Responses (snake_case) shape. */
function searchTool(tool: unknown): unknown {
  if (!isRec(tool)) return tool;
  if (tool.type === 'tool_reference' && isStr(tool.functionName))
    return clean({
      type: 'tool_reference',
      function_name: tool.functionName,
      namespace: tool.namespace,
    });
  if (tool.type === 'namespace' && Array.isArray(tool.tools))
    return { ...tool, tools: tool.tools.map(searchTool) };
  if (tool.type === 'function') {
    const { deferLoading, allowedCallers, outputSchema, ...rest } = tool;
    return clean({
      ...rest,
      defer_loading: deferLoading,
      allowed_callers: allowedCallers,
      output_schema: outputSchema,
    });
  }
  return tool;
}

/** Shell, apply-patch and program items (local tools of @openai/agents) in the Responses shape. */
function localToolItem(item: Rec, where: string): Item {
  const call_id = callIdOf(item, where);
  const caller = item.caller ? { caller: toCaller(item.caller) } : {};
  const action = isRec(item.action) ? item.action : {};
  const op = isRec(item.operation) ? item.operation : {};
  switch (item.type) {
    case 'shell_call':
      return clean({
        type: 'shell_call',
        id: item.id,
        call_id,
        status: item.status ?? 'in_progress',
        action: {
          commands: action.commands,
          timeout_ms: action.timeoutMs ?? null,
          max_output_length: action.maxOutputLength ?? null,
        },
        ...caller,
      });
    case 'shell_call_output':
      return clean({
        type: 'shell_call_output',
        id: item.id,
        call_id,
        status: item.status,
        max_output_length: item.maxOutputLength,
        output: (Array.isArray(item.output) ? item.output : []).map((o: any) => ({
          stdout: isStr(o?.stdout) ? o.stdout : '',
          stderr: isStr(o?.stderr) ? o.stderr : '',
          outcome:
            o?.outcome?.type === 'timeout'
              ? { type: 'timeout' }
              : { type: 'exit', exit_code: o?.outcome?.exitCode ?? 0 },
        })),
        ...caller,
      });
    case 'apply_patch_call':
      return clean({
        type: 'apply_patch_call',
        id: item.id,
        call_id,
        status: item.status ?? 'in_progress',
        operation: clean({ type: op.type, path: op.path, diff: op.diff, move_to: op.moveTo }),
        ...caller,
      });
    case 'apply_patch_call_output':
      return clean({
        type: 'apply_patch_call_output',
        id: item.id,
        call_id,
        status: item.status ?? 'completed',
        output: item.output,
        ...caller,
      });
    case 'program':
      return clean({
        type: 'program',
        id: item.id,
        call_id,
        code: item.code,
        fingerprint: item.fingerprint,
      });
    default:
      return clean({
        type: 'program_output',
        id: item.id,
        call_id,
        result: item.output,
        status: item.status,
      });
  }
}

/** {@link fromOpenAIAgentsItem} over a list; `where` prefixes each item's index in errors. */
export function fromOpenAIAgentsItems(values: readonly unknown[], where = 'items'): Item[] {
  return values.map((v, i) => fromOpenAIAgentsItem(v, `${where}[${i}]`));
}
