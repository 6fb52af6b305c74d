/**
 * `ModelRequest` → the body of `POST /v1/messages` (Anthropic Messages API,
 * https://docs.anthropic.com/en/api/messages): system, messages, tools, tool_choice,
 * max_tokens, thinking, structured output and prompt caching.
 */
import type {
  MessageCreateParamsBase,
  TextBlockParam,
  ToolChoice,
  ToolUnion,
} from '@anthropic-ai/sdk/resources/messages';
import { type ModelRequest, type ToolDefinition, UserError } from '@baton/kernel';
import { ANTHROPIC_PROVIDER_ID, convertToAnthropicInput } from './convert-to-anthropic-input.js';

/** Default `max_tokens` when `modelSettings.maxOutputTokens` is not set (the API requires one). */
export const DEFAULT_MAX_TOKENS = 4096;

/** Options of {@link buildAnthropicRequest}. */
export interface AnthropicRequestOptions {
  /** Put `cache_control: { type: 'ephemeral' }` on the system prompt, the last tool and the last message. */
  promptCaching?: boolean;
  /** `max_tokens` when the settings give none (default {@link DEFAULT_MAX_TOKENS}). */
  defaultMaxTokens?: number;
}

/** The request body without `stream` (the model adds it). */
export type AnthropicRequestBody = MessageCreateParamsBase & Record<string, unknown>;

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * Builds the request body.
 * - `max_tokens` = `maxOutputTokens`, else `defaultMaxTokens`; with a thinking budget at or above
 *   it, `budget + defaultMaxTokens` (the API needs `max_tokens` > `budget_tokens`).
 * - `thinking` = `{ type: 'enabled', budget_tokens }` from `modelSettings.thinking.budgetTokens`.
 * - `toolChoice`: `auto` → `{type:'auto'}`, `required` → `{type:'any'}`, `none` → `{type:'none'}`,
 *   a name → `{type:'tool', name}`; `parallelToolCalls: false` → `disable_parallel_tool_use`.
 *   Sent only when there are tools.
 * - `outputSchema` → native structured output `output_config.format = { type: 'json_schema', schema }`.
 * - `temperature`, `topP` → `temperature`, `top_p`.
 * - `container`: the id of the latest code execution container recorded in the input (see
 *   `convertFromAnthropicOutput`), when it has not expired and an Anthropic server tool is in use —
 *   programmatic tool calling needs it on the request that answers the tool call.
 * - `providerOptions.anthropic` is merged last, over everything (`output_config` is merged key by key).
 *
 * @throws UserError for a hosted tool of another provider (named in the message), and for
 *   `previousResponseId` / `conversationId` (Anthropic keeps no server-side conversation) and a
 *   `prompt` object (an OpenAI feature).
 */
export function buildAnthropicRequest(
  modelId: string,
  request: ModelRequest,
  options: AnthropicRequestOptions = {},
): AnthropicRequestBody {
  if (request.previousResponseId || request.conversationId) {
    throw new UserError(
      'The Anthropic Messages API keeps no server-side conversation: previousResponseId / conversationId cannot be used with an Anthropic model. Send the full history instead.',
    );
  }
  if (request.prompt) {
    throw new UserError(
      `Prompt objects (${request.prompt.id}) are an OpenAI Responses feature; the Anthropic Messages API cannot use one. Give the agent instructions instead.`,
    );
  }
  const settings = request.modelSettings ?? {};
  const { system, messages } = convertToAnthropicInput(request.input, request.systemInstructions);
  const tools = request.tools.map(toAnthropicTool);
  const given = settings.providerOptions?.[ANTHROPIC_PROVIDER_ID];
  // A copy (its output_config may be replaced below); none for the usual request without one.
  const extra = (given === undefined ? undefined : { ...given }) as
    | Record<string, unknown>
    | undefined;

  const body: AnthropicRequestBody = { model: modelId, max_tokens: 0, messages };
  if (system.length > 0) {
    body.system = options.promptCaching
      ? system.map(
          (text, i): TextBlockParam =>
            i === system.length - 1
              ? { type: 'text', text, cache_control: EPHEMERAL }
              : { type: 'text', text },
        )
      : system.join('\n\n');
  }
  if (tools.length > 0) {
    if (options.promptCaching)
      tools[tools.length - 1] = {
        ...tools[tools.length - 1],
        cache_control: EPHEMERAL,
      } as ToolUnion;
    body.tools = tools;
    const choice = toToolChoice(settings.toolChoice, settings.parallelToolCalls);
    if (choice) body.tool_choice = choice;
  }
  if (options.promptCaching) markLastMessage(body);
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.topP !== undefined) body.top_p = settings.topP;
  if (settings.thinking)
    body.thinking = { type: 'enabled', budget_tokens: settings.thinking.budgetTokens };
  if (request.outputSchema)
    body.output_config = { format: { type: 'json_schema', schema: request.outputSchema.schema } };
  if (usesAnthropicServerTool(request.tools)) {
    const container = latestContainer(request.input);
    if (container) body.container = container;
  }

  if (extra !== undefined) {
    if (extra.output_config && body.output_config) {
      extra.output_config = { ...body.output_config, ...(extra.output_config as object) };
    }
    Object.assign(body, extra);
  }

  const defaultMax = options.defaultMaxTokens ?? DEFAULT_MAX_TOKENS;
  const thinking = body.thinking as { type?: string; budget_tokens?: number } | undefined;
  const budget = thinking?.type === 'enabled' ? (thinking.budget_tokens ?? 0) : 0;
  if (extra?.max_tokens === undefined) {
    body.max_tokens =
      settings.maxOutputTokens ?? (budget >= defaultMax ? budget + defaultMax : defaultMax);
  }
  return body;
}

function usesAnthropicServerTool(tools: readonly ToolDefinition[]): boolean {
  for (const t of tools)
    if (t.type === 'hosted_tool' && t.providerId === ANTHROPIC_PROVIDER_ID) return true;
  return false;
}

function toAnthropicTool(tool: ToolDefinition): ToolUnion {
  if (tool.type === 'function') {
    // The tool's own schema object, unless it needs `type` added (then a copy).
    const parameters = tool.parameters as Record<string, unknown>;
    const schema = parameters.type === undefined ? { ...parameters, type: 'object' } : parameters;
    const out: ToolUnion = { name: tool.name, input_schema: schema as { type: 'object' } };
    if (tool.description) out.description = tool.description;
    return out;
  }
  if (tool.providerId !== ANTHROPIC_PROVIDER_ID) {
    throw new UserError(
      `Hosted tool "${tool.name}" belongs to provider "${tool.providerId}" and cannot run on Anthropic. Remove it from this agent, or use an Anthropic server tool (providerId 'anthropic').`,
    );
  }
  return { ...tool.providerData } as unknown as ToolUnion;
}

function toToolChoice(
  choice: string | undefined,
  parallel: boolean | undefined,
): ToolChoice | undefined {
  const noParallel = parallel === false ? { disable_parallel_tool_use: true } : {};
  switch (choice) {
    case undefined:
      return parallel === false ? { type: 'auto', ...noParallel } : undefined;
    case 'auto':
      return { type: 'auto', ...noParallel };
    case 'required':
      return { type: 'any', ...noParallel };
    case 'none':
      return { type: 'none' };
    default:
      return { type: 'tool', name: choice, ...noParallel };
  }
}

/** Puts `cache_control` on the last block of the last message that can carry one. */
function markLastMessage(body: AnthropicRequestBody): void {
  const last = body.messages[body.messages.length - 1];
  if (!last || typeof last.content === 'string') return;
  for (let i = last.content.length - 1; i >= 0; i--) {
    const block = last.content[i];
    if (block.type === 'thinking' || block.type === 'redacted_thinking') continue;
    last.content[i] = { ...block, cache_control: EPHEMERAL } as typeof block;
    return;
  }
}

/** The id of the latest unexpired container recorded on an input item, if any. */
function latestContainer(
  items: readonly ModelRequest['input'][number][],
  now = Date.now(),
): string | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const data = (items[i] as { provider_data?: Record<string, unknown> }).provider_data?.[
      ANTHROPIC_PROVIDER_ID
    ];
    const container = (data as { container?: { id?: unknown; expires_at?: unknown } } | undefined)
      ?.container;
    if (typeof container?.id !== 'string' || container.id === '') continue;
    const expires =
      typeof container.expires_at === 'string' ? Date.parse(container.expires_at) : Number.NaN;
    return Number.isNaN(expires) || expires > now ? container.id : undefined;
  }
  return undefined;
}
