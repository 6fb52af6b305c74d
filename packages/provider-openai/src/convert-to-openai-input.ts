/**
 * Baton `ModelRequest` → OpenAI Responses API request body (`POST /v1/responses`).
 *
 * Kernel items already have the Responses wire shape, so input conversion only removes what
 * the API does not accept: `provider_data`, ids minted by other providers, and reasoning items
 * the server could not resolve. Source: https://platform.openai.com/docs/api-reference/responses/create
 */
import {
  type ContentPart,
  type Item,
  type MessageItem,
  type ModelRequest,
  type ModelSettings,
  type ToolDefinition,
  UserError,
} from '@baton/kernel';

/** The JSON body sent to `client.responses.create` (snake_case, as on the wire). */
export type ResponsesRequestBody = { model: string; input: Record<string, unknown>[] } & Record<
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
}

const ID_PREFIX: Record<string, string> = { message: 'msg', function_call: 'fc', reasoning: 'rs' };

/**
 * Converts transcript items to Responses `input` items:
 * - `provider_data` is removed from every item;
 * - a `message` / `function_call` `id` that is not a Responses id (`msg_…` / `fc_…`, e.g. one
 *   minted by another provider) is removed, the item is kept;
 * - assistant `output_text` parts get `annotations: []` when missing (the API requires it);
 * - a `reasoning` item is dropped when it has no Responses id (`rs_…`: it came from another
 *   provider and cannot be resolved), or when `store` is `false` and it has no
 *   `encrypted_content` (nothing was stored to look it up); a `null` `encrypted_content` is omitted;
 * - `hosted_tool_call` (the kernel's neutral record of another provider's server tool) is dropped;
 * - every other item (hosted-tool calls, `compaction`, `item_reference`, MCP approvals, …) is
 *   passed through unchanged.
 */
export function toResponsesInput(
  items: readonly Item[],
  options: { store?: boolean } = {},
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let _: unknown;
  for (const item of items) {
    const raw = item as Item & Record<string, unknown>;
    const prefix = ID_PREFIX[item.type];
    const hasWireId =
      typeof raw.id === 'string' && prefix !== undefined && raw.id.startsWith(prefix);
    if (item.type === 'reasoning') {
      const encrypted = typeof raw.encrypted_content === 'string' && raw.encrypted_content !== '';
      if (!hasWireId || (options.store === false && !encrypted)) continue;
    } else if (item.type === 'hosted_tool_call') continue;
    // Items that need no change are sent as they are (the body is only serialized, never
    // changed); the others are copied and fixed.
    const dropId = prefix !== undefined && raw.id !== undefined && !hasWireId;
    const partsToFix =
      item.type === 'message' && item.role === 'assistant' && Array.isArray(item.content)
        ? item.content.some((p) => p.type === 'output_text' && p.annotations === undefined)
        : false;
    const dropEncrypted =
      item.type === 'reasoning' &&
      raw.encrypted_content !== undefined &&
      !(typeof raw.encrypted_content === 'string' && raw.encrypted_content !== '');
    if (raw.provider_data === undefined && !dropId && !partsToFix && !dropEncrypted) {
      out.push(raw);
      continue;
    }
    // Keys are left out by destructuring, not `delete` (which slows JSON.stringify down).
    let wire: Record<string, unknown>;
    if (dropId) ({ provider_data: _, id: _, ...wire } = raw);
    else if (dropEncrypted) ({ provider_data: _, encrypted_content: _, ...wire } = raw);
    else if (raw.provider_data !== undefined) ({ provider_data: _, ...wire } = raw);
    else wire = { ...raw }; // a plain copy is much cheaper than a rest copy
    if (partsToFix) {
      // Object.assign, not `{ ...part, annotations: [] }`: adding a key after a spread is ~5×
      // slower in V8.
      wire.content = (item as MessageItem & { content: ContentPart[] }).content.map((part) =>
        part.type === 'output_text' && part.annotations === undefined
          ? Object.assign({}, part, { annotations: [] })
          : part,
      );
    }
    out.push(wire);
  }
  return out;
}

/**
 * Converts tool definitions: function tools (handoffs included) → `{ type: 'function', name,
 * description, parameters, strict }`; hosted tools → their `providerData` as is.
 *
 * @throws UserError for a hosted tool of another provider (e.g. an Anthropic server tool).
 */
export function toResponsesTools(tools: readonly ToolDefinition[]): Record<string, unknown>[] {
  return tools.map((tool) => {
    if (tool.type === 'function') {
      return {
        type: 'function',
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
        strict: tool.strict,
      };
    }
    if (tool.providerId !== 'openai') {
      throw new UserError(
        `Hosted tool "${tool.name}" belongs to provider "${tool.providerId}"; the OpenAI Responses API cannot run it. Use it with a ${tool.providerId} model, or replace it with an OpenAI hosted tool.`,
      );
    }
    return { ...tool.providerData };
  });
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
 * Builds the Responses request body. Field mapping: `systemInstructions` → `instructions`;
 * `input` → {@link toResponsesInput}; `tools` → {@link toResponsesTools}; `outputSchema` →
 * `text.format` `{ type: 'json_schema', name, schema, strict }`; `modelSettings.toolChoice` →
 * `tool_choice`; `parallelToolCalls` → `parallel_tool_calls`; `reasoning`; `maxOutputTokens` →
 * `max_output_tokens`; `temperature`; `topP` → `top_p`; `truncation`; `store`; `include` (plus
 * `reasoning.encrypted_content` when `store` is `false`); `promptCacheKey` → `prompt_cache_key`;
 * `previousResponseId` → `previous_response_id`; `conversationId` → `conversation`;
 * `contextManagement` → `context_management`. `modelSettings.providerOptions.openai` is merged
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
  if (request.systemInstructions !== undefined && request.systemInstructions !== '')
    body.instructions = request.systemInstructions;
  if (request.tools.length > 0) body.tools = toResponsesTools(request.tools);
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
  const threshold = options.contextManagement?.compactThresholdTokens;
  if (options.contextManagement) {
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
