// Items
export type {
  AgentInput,
  ContentPart,
  FunctionCallItem,
  FunctionCallOutputItem,
  HostedItem,
  HostedItemType,
  InputFilePart,
  InputImagePart,
  InputTextPart,
  Item,
  MessageItem,
  OutputTextPart,
  ProviderData,
  ReasoningItem,
  RefusalPart,
} from './items/item-types.js';
export type {
  AgentRef,
  HandoffCallRunItem,
  HandoffOutputRunItem,
  MessageOutputRunItem,
  ReasoningRunItem,
  RunItem,
  ToolApprovalRunItem,
  ToolCallOutputRunItem,
  ToolCallRunItem,
} from './items/run-items.js';
export { runItemToInputItem, runItemsToInputItems } from './items/run-items.js';
export {
  assistantMessage,
  dropOrphanCalls,
  extractRefusal,
  extractText,
  toInputItem,
  toInputList,
  trimToCleanStart,
  userMessage,
} from './items/item-helpers.js';
// Errors
export {
  BatonError,
  InputGuardrailTripwireTriggered,
  MaxTurnsExceededError,
  ModelBehaviorError,
  ModelCallError,
  OutputGuardrailTripwireTriggered,
  RunAbortedError,
  SessionError,
  ToolCallError,
  ToolGuardrailTripwireTriggered,
  ToolInputError,
  ToolTimeoutError,
  UserError,
} from './errors/errors.js';
// Model contract
export type {
  FunctionToolDefinition,
  HostedToolDefinition,
  JsonSchema,
  Model,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ModelSettings,
  ModelStreamEvent,
  ModelTracing,
  OutputSchemaDefinition,
  RetryAdvice,
  ToolDefinition,
} from './model/model.js';
export { createProviderRegistry } from './model/provider-registry.js';
export { addUsage, emptyUsage, type Usage } from './model/usage.js';
// Sessions
export type { Session, SessionInputCallback, SessionSettings } from './session/session.js';
export { MemorySession } from './session/memory-session.js';
// Tracing contract
export type {
  AgentSpanData,
  CustomSpanData,
  FunctionSpanData,
  GenerationSpanData,
  GuardrailSpanData,
  HandoffSpanData,
  McpListToolsSpanData,
  Span,
  SpanData,
  SpanKind,
  Trace,
  TracingProcessor,
  TurnSpanData,
} from './tracing/span-types.js';
// Tools
export {
  defaultToolErrorFunction,
  REDACTED_TOOL_ERROR,
  tool,
  toToolOutput,
  type FunctionTool,
  type HostedTool,
  type Tool,
  type ToolCallDetails,
  type ToolEffect,
  type ToolErrorFunction,
  type ToolOptions,
} from './tool/tool.js';
export { isZodSchema, resolveSchema, type ResolvedSchema, type SchemaLike } from './tool/schema.js';
export { toStrictJsonSchema, tryStrictJsonSchema } from './tool/strict-schema.js';
// Guardrails
export {
  inputGuardrail,
  outputGuardrail,
  type GuardrailFunctionOutput,
  type GuardrailResult,
  type InputGuardrail,
  type InputGuardrailArgs,
  type OutputGuardrail,
  type OutputGuardrailArgs,
} from './guardrail/guardrail.js';
export {
  toolInputGuardrail,
  toolOutputGuardrail,
  type ToolGuardrailBehavior,
  type ToolGuardrailOutput,
  type ToolGuardrailResult,
  type ToolInputGuardrail,
  type ToolOutputGuardrail,
} from './guardrail/tool-guardrail.js';
// Handoffs
export {
  defaultHandoffToolName,
  handoff,
  type Handoff,
  type HandoffInputData,
  type HandoffInputFilter,
  type HandoffOptions,
} from './handoff/handoff.js';
// Agents
export { Agent, type AgentConfig, type FunctionToolResult, type Instructions, type OutputOf, type ToolUseBehavior } from './agent/agent.js';
export type { AgentHooks, LLMStartInfo, RunHooks } from './agent/hooks.js';
export type { AsToolOptions } from './agent/as-tool.js';
// Capabilities
export type { Capability, CapabilityRun } from './capability/capability.js';
// Loop
export { RunContext } from './loop/run-context.js';
