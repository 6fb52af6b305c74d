/**
 * A kernel `ModelRequest` → the Chat Completions request body (source: OpenAI Chat Completions
 * API reference, `POST /chat/completions`). Everything Chat Completions cannot do fails here,
 * at request build time, with a `UserError` — before any request is sent.
 */

import { type ModelRequest, type OutputSchemaDefinition, UserError } from '@baton/kernel';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import { convertToChatMessages } from './convert-to-chat-messages.js';

/** Options of {@link convertToChatInput}. */
export interface ChatInputOptions {
  /** Provider id: key of `providerOptions` and `provider_data`, and the name in error messages. */
  providerId: string;
  /** `'replay'` sends DeepSeek-style `reasoning_content` back on assistant messages. Default `'drop'`. */
  reasoningContent?: 'drop' | 'replay';
  /**
   * `'native'` (default) asks for `response_format: json_schema` (strict); `'instructions'`
   * appends the schema to the system prompt for endpoints without `response_format`.
   */
  structuredOutput?: 'native' | 'instructions';
  /** See `ChatMessageOptions.toolCallIdFormat`. Default `'any'`. */
  toolCallIdFormat?: 'any' | 'alphanumeric9';
  /** See `ChatMessageOptions.systemMessages`. Default `'in_place'`. */
  systemMessages?: 'in_place' | 'first';
}

/** A Chat Completions request body; extra provider fields (from `providerOptions`) are allowed. */
export type ChatRequestBody = ChatCompletionCreateParamsNonStreaming & Record<string, unknown>;

/**
 * Builds the request body for `client.chat.completions.create`.
 *
 * Mapping: `systemInstructions` first; items per
 * `convertToChatMessages`; function tools → `{ type: 'function', function: { name,
 * description, parameters, strict } }`; `toolChoice` (`'auto' | 'required' | 'none'` or a tool
 * name); `parallelToolCalls` → `parallel_tool_calls` (tool-related fields only when tools are
 * given); `maxOutputTokens` → `max_completion_tokens`; `temperature`; `topP` → `top_p`;
 * `reasoning.effort` → `reasoning_effort`; `store`; `outputSchema` → `response_format`
 * json_schema (or instructions); `providerOptions[providerId]` merged last (overrides any
 * field). `promptCacheKey`, `reasoning.summary` and `thinking` are not sent (use
 * `providerOptions` for `prompt_cache_key`).
 *
 * @throws UserError for a hosted tool, `previousResponseId`, `conversationId`, `include` or
 *   `truncation: 'auto'` (Responses API features), naming the feature and the provider.
 */
export function convertToChatInput(
  request: ModelRequest,
  modelId: string,
  options: ChatInputOptions,
): ChatRequestBody {
  const id = options.providerId;
  rejectResponsesOnlyFeatures(request, id);
  const tools = convertTools(request, id);
  let system = request.systemInstructions;
  const settings = request.modelSettings ?? {};
  const structured = options.structuredOutput ?? 'native';
  if (request.outputSchema && structured === 'instructions') {
    const instruction = schemaInstructions(request.outputSchema);
    system = system ? `${system}\n\n${instruction}` : instruction;
  }
  // `options` is a `ChatMessageOptions` too (same fields): no copy per request.
  const messages = convertToChatMessages(request.input, system, options);
  // The usual bodies as whole literals (no property added after creation).
  const body: Record<string, unknown> =
    tools.length > 0 ? { model: modelId, messages, tools } : { model: modelId, messages };
  if (tools.length > 0) {
    if (settings.toolChoice !== undefined)
      body.tool_choice = convertToolChoice(settings.toolChoice);
    if (settings.parallelToolCalls !== undefined)
      body.parallel_tool_calls = settings.parallelToolCalls;
  }
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.topP !== undefined) body.top_p = settings.topP;
  if (settings.maxOutputTokens !== undefined) body.max_completion_tokens = settings.maxOutputTokens;
  if (settings.reasoning?.effort !== undefined) body.reasoning_effort = settings.reasoning.effort;
  if (settings.store !== undefined) body.store = settings.store;
  if (request.outputSchema && structured === 'native') {
    body.response_format = {
      type: 'json_schema',
      json_schema: {
        name: schemaName(request.outputSchema.name),
        schema: request.outputSchema.schema,
        strict: request.outputSchema.strict,
      },
    };
  }
  const extra = settings.providerOptions?.[id];
  if (extra !== undefined) Object.assign(body, extra);
  return body as ChatRequestBody;
}

const USE_RESPONSES = 'Use @baton/provider-openai (Responses API) for it';

function refuse(id: string, feature: string, advice: string): never {
  throw new UserError(
    `${feature} is an OpenAI Responses API feature; the Chat Completions provider "${id}" cannot send it. ${advice}`,
  );
}

function rejectResponsesOnlyFeatures(request: ModelRequest, id: string): void {
  if (request.previousResponseId)
    refuse(
      id,
      'previousResponseId',
      `${USE_RESPONSES}, or run without it (Chat Completions sends the full history each turn).`,
    );
  if (request.conversationId)
    refuse(id, 'conversationId', `${USE_RESPONSES}, or keep the history in a Session.`);
  if (request.prompt)
    refuse(
      id,
      `A prompt object (${request.prompt.id})`,
      `${USE_RESPONSES}, or give the agent instructions.`,
    );
  const settings = request.modelSettings;
  if (settings === undefined) return;
  if (settings.include && settings.include.length > 0)
    refuse(
      id,
      `modelSettings.include (${settings.include.join(', ')})`,
      `${USE_RESPONSES}, or remove it.`,
    );
  if (settings.truncation === 'auto')
    refuse(id, "modelSettings.truncation: 'auto'", `${USE_RESPONSES}, or remove it.`);
}

function convertTools(request: ModelRequest, id: string): ChatCompletionTool[] {
  const tools: ChatCompletionTool[] = [];
  for (const tool of request.tools) tools.push(convertTool(tool, id));
  return tools;
}

function convertTool(tool: ModelRequest['tools'][number], id: string): ChatCompletionTool {
  if (tool.type === 'function') {
    return {
      type: 'function',
      function: {
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
        strict: tool.strict,
      },
    };
  }
  if (tool.type === 'hosted_tool') {
    throw new UserError(
      `Hosted tool "${tool.name}" (for provider "${tool.providerId}") cannot be used with the Chat Completions provider "${id}": Chat Completions has no server-side tools. Use @baton/provider-openai (Responses API) for this agent, or replace the tool with a function tool.`,
    );
  }
  throw new UserError(
    `Tool type "${(tool as { type?: unknown }).type}" is not supported by the Chat Completions provider "${id}"; only function tools are.`,
  );
}

function convertToolChoice(choice: string): ChatCompletionToolChoiceOption {
  if (choice === 'auto' || choice === 'required' || choice === 'none') return choice;
  return { type: 'function', function: { name: choice } };
}

/** Chat Completions schema names must match `^[a-zA-Z0-9_-]{1,64}$`. */
function schemaName(name: string): string {
  const cleaned = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return cleaned === '' ? 'output' : cleaned;
}

function schemaInstructions(output: OutputSchemaDefinition): string {
  return `Respond with only a JSON value (no prose, no code fence) that matches this JSON Schema (name "${output.name}"):\n${JSON.stringify(output.schema)}`;
}
