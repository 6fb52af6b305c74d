/**
 * Attribute names and values of the OpenTelemetry GenAI semantic conventions, as published in
 * semantic-conventions **v1.41.0** (`docs/gen-ai/gen-ai-spans.md`, `gen-ai-agent-spans.md`) and
 * shipped in the `@opentelemetry/semantic-conventions` 1.45.0 `incubating` entry point.
 *
 * They are copied here rather than imported, as the OpenTelemetry JS docs recommend for
 * incubating (experimental) attributes: this package then needs only `@opentelemetry/api` at
 * runtime. A test checks every string against the pinned semantic-conventions package.
 *
 * Baton's own attributes (turns, handoffs, guardrails, workflow metadata) use the `baton.`
 * prefix.
 */

/** `gen_ai.*` attribute names (OpenTelemetry semantic conventions v1.41.0, GenAI registry). */
export const GEN_AI = {
  OPERATION_NAME: 'gen_ai.operation.name',
  PROVIDER_NAME: 'gen_ai.provider.name',
  AGENT_NAME: 'gen_ai.agent.name',
  WORKFLOW_NAME: 'gen_ai.workflow.name',
  REQUEST_MODEL: 'gen_ai.request.model',
  REQUEST_TEMPERATURE: 'gen_ai.request.temperature',
  REQUEST_TOP_P: 'gen_ai.request.top_p',
  REQUEST_MAX_TOKENS: 'gen_ai.request.max_tokens',
  RESPONSE_MODEL: 'gen_ai.response.model',
  RESPONSE_ID: 'gen_ai.response.id',
  RESPONSE_FINISH_REASONS: 'gen_ai.response.finish_reasons',
  USAGE_INPUT_TOKENS: 'gen_ai.usage.input_tokens',
  USAGE_OUTPUT_TOKENS: 'gen_ai.usage.output_tokens',
  USAGE_CACHE_READ_INPUT_TOKENS: 'gen_ai.usage.cache_read.input_tokens',
  USAGE_CACHE_CREATION_INPUT_TOKENS: 'gen_ai.usage.cache_creation.input_tokens',
  USAGE_REASONING_OUTPUT_TOKENS: 'gen_ai.usage.reasoning.output_tokens',
  INPUT_MESSAGES: 'gen_ai.input.messages',
  OUTPUT_MESSAGES: 'gen_ai.output.messages',
  SYSTEM_INSTRUCTIONS: 'gen_ai.system_instructions',
  TOOL_NAME: 'gen_ai.tool.name',
  TOOL_TYPE: 'gen_ai.tool.type',
  TOOL_CALL_ID: 'gen_ai.tool.call.id',
  TOOL_CALL_ARGUMENTS: 'gen_ai.tool.call.arguments',
  TOOL_CALL_RESULT: 'gen_ai.tool.call.result',
} as const;

/** Well-known `gen_ai.operation.name` values used by Baton. */
export const GEN_AI_OPERATION = {
  CHAT: 'chat',
  INVOKE_AGENT: 'invoke_agent',
  INVOKE_WORKFLOW: 'invoke_workflow',
  EXECUTE_TOOL: 'execute_tool',
} as const;

/** Stable `server.*` attributes (OpenTelemetry semantic conventions): where the API is served. */
export const SERVER = {
  ADDRESS: 'server.address',
  PORT: 'server.port',
} as const;

/**
 * `gen_ai.provider.name` of a generation span: the model endpoint's own value when it has one,
 * else the semantic-conventions value of a Baton provider id (`openai`, `anthropic`), else the
 * id itself (the conventions allow custom values for systems they do not list).
 */
export function genAiProviderName(providerName: unknown, providerId: unknown): string | undefined {
  if (typeof providerName === 'string' && providerName !== '') return providerName;
  return typeof providerId === 'string' && providerId !== '' ? providerId : undefined;
}

/** Stable `error.type` attribute (OpenTelemetry "Recording errors"); `_OTHER` is its fallback. */
export const ERROR_TYPE = 'error.type';
/** Fallback value of `error.type` when the error carries no low-cardinality type. */
export const ERROR_TYPE_OTHER = '_OTHER';

/** Baton-specific attribute names (not part of the OpenTelemetry conventions). */
export const BATON = {
  SPAN_KIND: 'baton.span.kind',
  TRACE_ID: 'baton.trace.id',
  WORKFLOW_NAME: 'baton.workflow.name',
  GROUP_ID: 'baton.group_id',
  METADATA_PREFIX: 'baton.metadata.',
  AGENT_TOOLS: 'baton.agent.tools',
  AGENT_HANDOFFS: 'baton.agent.handoffs',
  AGENT_OUTPUT_TYPE: 'baton.agent.output_type',
  AGENT_NAME: 'baton.agent.name',
  TURN: 'baton.turn',
  HANDOFF_FROM: 'baton.handoff.from',
  HANDOFF_TO: 'baton.handoff.to',
  GUARDRAIL_NAME: 'baton.guardrail.name',
  GUARDRAIL_TRIGGERED: 'baton.guardrail.triggered',
  MCP_SERVER: 'baton.mcp.server',
  MCP_TOOLS: 'baton.mcp.tools',
  CUSTOM_NAME: 'baton.custom.name',
  CUSTOM_DATA_PREFIX: 'baton.custom.data.',
  UNFINISHED: 'baton.span.unfinished',
} as const;
