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
  ToolCallInDoubtError,
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
export { run, Runner, runStep, type StepOutcome } from './loop/run.js';
export { RunResult, RunResultBase, StreamedRunResult } from './loop/run-result.js';
export type { NextStep } from './loop/next-step.js';
export type {
  AgentUpdatedStreamEvent,
  RawModelStreamEvent,
  RunItemEventName,
  RunItemStreamEvent,
  RunStreamEvent,
} from './loop/run-events.js';
export type {
  BackoffOptions,
  DurabilityHooks,
  ModelInputData,
  NonStreamRunOptions,
  RetryOptions,
  RunOptions,
  StreamRunOptions,
} from './loop/run-options.js';
export { DEFAULT_REJECTION_TEXT } from './loop/execute-tools.js';
export { IGNORED_HANDOFF_TEXT } from './loop/execute-handoff.js';
export { backoffDelayMs } from './loop/retry.js';
// RunState
export {
  RUN_STATE_SCHEMA_VERSION,
  RunState,
  type PendingTurn,
  type ToolApprovalRecord,
  type TraceInfo,
} from './run-state/run-state.js';
export { runStateSchemaV1, type SerializedRunStateV1 } from './run-state/run-state-schema.js';
export { itemSchema } from './items/item-schemas.js';
// Handoff filters
export { defaultHistoryMapper, keepLastN, nestHandoffHistory, removeAllTools } from './handoff/handoff-filters.js';
// Tracing runtime
export {
  addTraceProcessor,
  flushTraces,
  getTraceProcessors,
  setTraceProcessors,
  setTracingErrorHandler,
} from './tracing/processors.js';
export { getCurrentSpan, withCustomSpan, withMcpListToolsSpan } from './tracing/custom-span.js';
export { ConsoleTraceProcessor } from './tracing/console-trace-processor.js';
export { JsonlTraceExporter, type JsonlSink } from './tracing/jsonl-trace-exporter.js';
