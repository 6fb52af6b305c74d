/**
 * Baton `ModelRequest` → OpenAI Responses API request body (`POST /v1/responses`).
 *
 * Kernel items already have the Responses wire shape, so input conversion only removes what
 * the API does not accept: `provider_data`, ids minted by other providers, and reasoning items
 * the server could not resolve. Source: https://platform.openai.com/docs/api-reference/responses/create
 */
import type {
  ContentPart,
  Item,
  MessageItem,
  ModelRequest,
  ModelSettings,
  ToolDefinition,
} from '@baton/kernel';
import { inputItemError } from '@baton/provider-utils';
import { toResponsesTools } from './responses-tools.js';

/** The JSON body sent to `client.responses.create` (snake_case, as on the wire). */
export type ResponsesRequestBody = { model?: string; input: Record<string, unknown>[] } & Record<
  string,
  unknown
>;

/** Server-side compaction (`context_management`); see {@link BuildResponsesRequestOptions}. */
export interface ContextManagementOptions {
  /** Compact the conversation on the server once it passes this many input tokens. */
  compactThresholdTokens?: number;
}

/** Options of {@link buildResponsesRequest}. */
export interface BuildResponsesRequestOptions {
  /** Model name sent as `model`. */
  modelId: string;
  /** When set, sends `context_management: [{ type: 'compaction', compact_threshold }]`. */
  contextManagement?: ContextManagementOptions;
  /**
   * The model name is the provider's default, not the user's choice: with a prompt object, `model`
   * is then left out so the prompt's own model is used.
   */
  modelIsDefault?: boolean;
}

const ID_PREFIX: Record<string, string> = { message: 'msg', function_call: 'fc', reasoning: 'rs' };

/**
 * Converts transcript items to Responses `input` items:
 * - `provider_data` and the output-only `created_by` are removed from every item (and from
 *   `shell_call_output` chunks);
 * - a `message` / `function_call` `id` that is not a Responses id (`msg_…` / `fc_…`, e.g. one
 *   minted by another provider) is removed, the item is kept;
 * - assistant `output_text` parts get `annotations: []` when missing (the API requires it);
 * - a `reasoning` item is dropped when it has no Responses id (`rs_…`: it came from another
 *   provider and cannot be resolved), or when `store` is `false` and it has no
 *   `encrypted_content` (nothing was stored to look it up); a `null` `encrypted_content` is omitted;
 * - `hosted_tool_call` (the kernel's neutral record of another provider's server tool) is dropped;
 * - items before the latest `compaction` item are dropped: the compaction item stands for them
 *   (the transcript keeps them; only the request leaves them out);
 * - a `local_shell_call_output` is sent with the call id as its `id`, as the API names it;
 * - every other item (hosted-tool calls, `compaction`, `item_reference`, MCP approvals, …) is
 *   passed through unchanged.
 *
 * @throws UserError naming the first item the kernel's item check rejects, when such an item
 *   breaks the conversion (e.g. a `null` content part in an assistant message).
 */
export function toResponsesInput(
  items: readonly Item[],
  options: { store?: boolean } = {},
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  try {
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      // A compaction item stands for everything before it: drop what was converted so far.
      if (item.type === 'compaction') out.length = 0;
      const wire = wireItem(item, options);
      if (wire) out.push(wire);
    }
  } catch (error) {
    throw inputItemError(error, items, 'the OpenAI Responses API');
  }
  return out;
}

/**
 * One transcript item as a Responses input item (the per-item rules of {@link toResponsesInput}),
 * a new object, or `undefined` for an item the API cannot take.
 */
export function toResponsesInputItem(
  item: Item,
  options: { store?: boolean } = {},
): Record<string, unknown> | undefined {
  let wire: Record<string, unknown> | undefined;
  try {
    wire = wireItem(item, options);
  } catch (error) {
    throw inputItemError(error, [item], 'the OpenAI Responses API');
  }
  return wire === item ? { ...wire } : wire;
}

/**
 * {@link toResponsesInputItem}, but an item that needs no change is returned as it is (a request
 * body is only serialized, never changed); the others are copied and fixed.
 */
function wireItem(item: Item, options: { store?: boolean }): Record<string, unknown> | undefined {
  const raw = item as Item & Record<string, unknown>;
  // The items of most histories first (one type test each, no closures): returned as they are,
  // or an assistant message copied once with `annotations: []` added to its text parts.
  if (raw.provider_data === undefined && raw.created_by === undefined) {
    const type = item.type;
    if (type === 'function_call_output') return raw;
    if (type === 'function_call' || type === 'message') {
      const id = raw.id;
      // The prefix as a literal, not `ID_PREFIX[type]` (a keyed load on every item).
      if (
        id !== undefined &&
        !(typeof id === 'string' && id.startsWith(type === 'message' ? 'msg' : 'fc'))
      )
        return slowWireItem(item, options);
      if (type === 'function_call' || item.role !== 'assistant' || !Array.isArray(item.content))
        return raw;
      const content = item.content;
      let i = 0;
      while (i < content.length) {
        const part = content[i];
        if (part.type === 'output_text' && part.annotations === undefined) break;
        i++;
      }
      if (i === content.length) return raw;
      let fixed: ContentPart[];
      // One text part (the usual answer): the new list as a literal.
      if (content.length === 1) fixed = [withAnnotations(content[0])];
      else {
        fixed = content.slice(0, i);
        for (; i < content.length; i++) fixed.push(withAnnotations(content[i]));
      }
      // A spread copies the item's shape at once (~6× faster than copying key by key); only an
      // item that holds `provider_data` / `created_by` keys (set to undefined) or an own
      // `__proto__` key (which the assignment below drops) is copied key by key.
      if (
        !Object.hasOwn(raw, 'provider_data') &&
        !Object.hasOwn(raw, 'created_by') &&
        !Object.hasOwn(raw, '__proto__')
      )
        return { ...raw, content: fixed };
      const wire: Record<string, unknown> = {};
      for (const key in raw) {
        if (!Object.hasOwn(raw, key) || key === 'provider_data' || key === 'created_by') continue;
        wire[key] = key === 'content' ? fixed : raw[key];
      }
      return wire;
    }
  }
  return slowWireItem(item, options);
}

/** An `output_text` part without `annotations` → a copy with `annotations: []`; others as they are. */
function withAnnotations(part: ContentPart): ContentPart {
  if (part.type !== 'output_text' || part.annotations !== undefined) return part;
  // `{ type, text }` (the usual part): a literal of the same key order, one allocation.
  let n = 0;
  for (const key in part) {
    if ((n === 0 && key !== 'type') || (n === 1 && key !== 'text') || n > 1) {
      n = -1;
      break;
    }
    n++;
  }
  if (n === 2) return { type: part.type, text: part.text, annotations: [] };
  // Object.assign, not `{ ...part, annotations: [] }`: adding a key after a spread is ~5×
  // slower in V8.
  return Object.assign({}, part, { annotations: [] });
}

function slowWireItem(
  item: Item,
  options: { store?: boolean },
): Record<string, unknown> | undefined {
  const raw = item as Item & Record<string, unknown>;
  const prefix = ID_PREFIX[item.type];
  const hasWireId = typeof raw.id === 'string' && prefix !== undefined && raw.id.startsWith(prefix);
  const encrypted = typeof raw.encrypted_content === 'string' && raw.encrypted_content !== '';
  if (item.type === 'reasoning') {
    if (!hasWireId || (options.store === false && !encrypted)) return undefined;
  } else if (item.type === 'hosted_tool_call') return undefined;
  const dropId = prefix !== undefined && raw.id !== undefined && !hasWireId;
  const partsToFix =
    item.type === 'message' && item.role === 'assistant' && Array.isArray(item.content)
      ? item.content.some((p) => p.type === 'output_text' && p.annotations === undefined)
      : false;
  const dropEncrypted =
    item.type === 'reasoning' && raw.encrypted_content !== undefined && !encrypted;
  const shellOutput = item.type === 'shell_call_output' && Array.isArray(raw.output);
  const localShellOutput =
    item.type === 'local_shell_call_output' && typeof raw.call_id === 'string';
  if (
    raw.provider_data === undefined &&
    raw.created_by === undefined &&
    !dropId &&
    !partsToFix &&
    !dropEncrypted &&
    !shellOutput &&
    !localShellOutput
  )
    return raw;
  // Keys are left out by destructuring, not `delete` (which slows JSON.stringify down).
  const { provider_data: _data, created_by: _by, ...wire }: Record<string, unknown> = raw;
  if (dropEncrypted) delete wire.encrypted_content;
  else if (shellOutput)
    wire.output = (wire.output as unknown[]).map((chunk) => {
      if (typeof chunk !== 'object' || chunk === null || !('created_by' in chunk)) return chunk;
      const { created_by: _, ...rest } = chunk as Record<string, unknown>;
      return rest;
    });
  else if (localShellOutput) {
    wire.id = wire.call_id;
    delete wire.call_id;
  } else if (dropId) delete wire.id;
  if (partsToFix) {
    wire.content = (item as MessageItem & { content: ContentPart[] }).content.map(withAnnotations);
  }
  return wire;
}

/**
 * Maps `toolChoice`: `'auto' | 'required' | 'none'` as is; the name of a hosted tool → its hosted
 * choice (`{ type: 'web_search' }`, `{ type: 'mcp', server_label }`); any other name →
 * `{ type: 'function', name }`.
 */
export function toResponsesToolChoice(
  toolChoice: ModelSettings['toolChoice'],
  tools: readonly ToolDefinition[],
): unknown {
  if (toolChoice === undefined) return undefined;
  if (toolChoice === 'auto' || toolChoice === 'required' || toolChoice === 'none')
    return toolChoice;
  const hosted = tools.find((t) => t.type === 'hosted_tool' && t.name === toolChoice);
  if (hosted && hosted.type === 'hosted_tool') {
    const data = hosted.providerData;
    return data.type === 'mcp'
      ? { type: 'mcp', server_label: data.server_label }
      : { type: data.type };
  }
  return { type: 'function', name: toolChoice };
}

/**
 * Builds the Responses request body. Field mapping: `prompt` → `prompt` (and no `model` when the
 * model is the provider's default); `systemInstructions` → `instructions`;
 * `input` → {@link toResponsesInput}; `tools` → {@link toResponsesTools}; `outputSchema` →
 * `text.format` `{ type: 'json_schema', name, schema, strict }`; `modelSettings.toolChoice` →
 * `tool_choice`; `parallelToolCalls` → `parallel_tool_calls`; `reasoning`; `maxOutputTokens` →
 * `max_output_tokens`; `temperature`; `topP` → `top_p`; `truncation`; `store`; `include` (plus
 * `reasoning.encrypted_content` when `store` is `false`); `promptCacheKey` → `prompt_cache_key`;
 * `previousResponseId` → `previous_response_id`; `conversationId` → `conversation`;
 * `modelSettings.contextManagement` (else the model's `contextManagement` option) →
 * `context_management`. `modelSettings.providerOptions.openai` is merged
 * last (shallow), so it can set or override any field. Unset settings are omitted.
 *
 * @throws UserError for hosted tools of another provider.
 */
export function buildResponsesRequest(
  request: ModelRequest,
  options: BuildResponsesRequestOptions,
): ResponsesRequestBody {
  const settings = request.modelSettings ?? {};
  const body: ResponsesRequestBody = {
    model: options.modelId,
    input: toResponsesInput(request.input, { store: settings.store }),
  };
  if (request.prompt) {
    body.prompt = { ...request.prompt };
    if (options.modelIsDefault) delete body.model;
  }
  if (request.systemInstructions !== undefined && request.systemInstructions !== '')
    body.instructions = request.systemInstructions;
  if (request.tools.length > 0)
    body.tools = toResponsesTools(request.tools, {
      modelId: options.modelId,
      promptTools: request.prompt !== undefined,
    });
  if (request.outputSchema) {
    const { name, schema, strict } = request.outputSchema;
    body.text = { format: { type: 'json_schema', name: formatName(name), schema, strict } };
  }
  set(body, 'tool_choice', toResponsesToolChoice(settings.toolChoice, request.tools));
  set(body, 'parallel_tool_calls', settings.parallelToolCalls);
  if (settings.reasoning && Object.keys(settings.reasoning).length > 0)
    body.reasoning = { ...settings.reasoning };
  set(body, 'max_output_tokens', settings.maxOutputTokens);
  set(body, 'temperature', settings.temperature);
  set(body, 'top_p', settings.topP);
  set(body, 'truncation', settings.truncation);
  set(body, 'store', settings.store);
  const include = new Set(settings.include ?? []);
  if (settings.store === false) include.add('reasoning.encrypted_content');
  if (include.size > 0) body.include = [...include];
  set(body, 'prompt_cache_key', request.promptCacheKey);
  set(body, 'previous_response_id', request.previousResponseId);
  set(body, 'conversation', request.conversationId);
  const threshold =
    settings.contextManagement?.compactThreshold ??
    options.contextManagement?.compactThresholdTokens;
  if (options.contextManagement || settings.contextManagement) {
    body.context_management = [
      threshold === undefined
        ? { type: 'compaction' }
        : { type: 'compaction', compact_threshold: threshold },
    ];
  }
  const extra = settings.providerOptions?.openai;
  if (extra) Object.assign(body, extra);
  return body;
}

function set(body: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== undefined) body[key] = value;
}

/** `text.format.name` must match `^[a-zA-Z0-9_-]{1,64}$`. */
function formatName(name: string): string {
  const cleaned = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return cleaned === '' ? 'output' : cleaned;
}
