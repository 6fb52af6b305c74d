// Items

// Agents
export {
  Agent,
  type AgentConfig,
  type AgentPrompt,
  type FunctionToolResult,
  type Instructions,
  type OutputOf,
  type ToolUseBehavior,
} from './agent/agent.js';
export type { AgentToolRunOptions, AgentToolRunResult, AsToolOptions } from './agent/as-tool.js';
export type { AgentHooks, LLMStartInfo, RunHooks } from './agent/hooks.js';
// Capabilities
export type { Capability, CapabilityRun, RunOutcome } from './capability/capability.js';
// Errors
export {
  BatonError,
  DurabilityError,
  GuardrailExecutionError,
  InputGuardrailTripwireTriggered,
  MaxTurnsExceededError,
  ModelBehaviorError,
  ModelCallError,
  OutputGuardrailTripwireTriggered,
  RunAbortedError,
  SessionError,
  ToolCallError,
  ToolCallInDoubtError,
  ToolGuardrailTripwireTriggered,
  ToolInputError,
  ToolTimeoutError,
  UserError,
} from './errors/errors.js';
// Guardrails
export {
  type GuardrailFunctionOutput,
  type GuardrailResult,
  type InputGuardrail,
  type InputGuardrailArgs,
  inputGuardrail,
  type OutputGuardrail,
  type OutputGuardrailArgs,
  outputGuardrail,
} from './guardrail/guardrail.js';
export {
  type ToolGuardrailBehavior,
  type ToolGuardrailOutput,
  type ToolGuardrailResult,
  type ToolInputGuardrail,
  type ToolOutputGuardrail,
  toolInputGuardrail,
  toolOutputGuardrail,
} from './guardrail/tool-guardrail.js';
// Handoffs
export {
  defaultHandoffToolName,
  type Handoff,
  type HandoffInputData,
  type HandoffInputFilter,
  type HandoffOptions,
  handoff,
} from './handoff/handoff.js';
// Handoff filters
export { defaultHistoryMapper, nestHandoffHistory } from './handoff/handoff-filters.js';
export {
  assistantMessage,
  dropOrphanCalls,
  extractRefusal,
  extractText,
  outputCallIdOf,
  pendingCallId,
  toInputItem,
  toInputList,
  trimToCleanStart,
  userMessage,
} from './items/item-helpers.js';
export {
  createItemSchemas,
  findItemIssue,
  type ItemSchemas,
  loadItemSchemas,
  MAX_ITEM_DEPTH,
} from './items/item-schemas.js';
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
export { runItemsToInputItems } from './items/run-items.js';
export { IGNORED_HANDOFF_TEXT } from './loop/execute-handoff.js';
export { DEFAULT_REJECTION_TEXT } from './loop/execute-tools.js';
export type { NextStep } from './loop/next-step.js';
export { backoffDelayMs } from './loop/retry.js';
export {
  type ContextOf,
  Runner,
  type RunOptionsFor,
  type RunResultFor,
  run,
  runStep,
  type StepOutcome,
} from './loop/run.js';
// Loop
export { RunContext } from './loop/run-context.js';
export type {
  AgentUpdatedStreamEvent,
  NestedRunStreamEvent,
  RawModelStreamEvent,
  RunItemEventName,
  RunItemStreamEvent,
  RunStreamEvent,
} from './loop/run-events.js';
export { OUTPUT_GUARDRAIL_WITHHELD_TEXT } from './loop/run-guardrails.js';
export type {
  BackoffOptions,
  DurabilityHooks,
  MaxTurnsHandled,
  ModelInputData,
  NonStreamRunOptions,
  RetryOptions,
  RunLogger,
  RunOptions,
  StreamRunOptions,
} from './loop/run-options.js';
export { RunResult, RunResultBase, StreamedRunResult } from './loop/run-result.js';
export { runToolCall, type ToolCallOutcome, type ToolCallRequest } from './loop/run-tool-call.js';
// Sessions
export { readSessionHistory } from './loop/session-io.js';
// Model contract
export type {
  FunctionToolDefinition,
  HostedToolDefinition,
  JsonSchema,
  Model,
  ModelEndpoint,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ModelSettings,
  ModelStreamEvent,
  ModelTracing,
  OutputSchemaDefinition,
  Prompt,
  RetryAdvice,
  ToolDefinition,
} from './model/model.js';
export { createProviderRegistry } from './model/provider-registry.js';
export { addUsage, emptyUsage, type Usage } from './model/usage.js';
// RunState
export type { ApprovalRecords, ToolApprovalRecord } from './run-state/approvals.js';
export {
  type PendingTurn,
  RUN_STATE_SCHEMA_VERSION,
  RunState,
  type ServerConversation,
  type TraceInfo,
} from './run-state/run-state.js';
export { MAX_RUN_STATE_DEPTH } from './run-state/run-state-json.js';
export {
  createRunStateSchemaV1,
  loadRunStateSchemaV1,
  type SerializedRunItemV1,
  type SerializedRunStateV1,
} from './run-state/run-state-schema.js';
export { MemorySession } from './session/memory-session.js';
export type {
  AddItemsOptions,
  Session,
  SessionInputCallback,
  SessionSettings,
  SessionV2,
} from './session/session.js';
export { readAddItemsArgs, readItemLimit } from './session/session-args.js';
export {
  formatIssues,
  type InferSchema,
  isStandardSchema,
  type ResolvedSchema,
  resolveSchema,
  type SchemaLike,
  type StandardSchemaLike,
  withJsonSchema,
} from './tool/schema.js';
export { toStrictJsonSchema, tryStrictJsonSchema } from './tool/strict-schema.js';
// Tools
export {
  defaultToolErrorFunction,
  type FunctionTool,
  type HostedApprovalDecision,
  type HostedTool,
  type NativeToolCall,
  REDACTED_TOOL_ERROR,
  type Tool,
  type ToolCallDetails,
  type ToolEffect,
  type ToolErrorFunction,
  type ToolOptions,
  tool,
  toToolOutput,
} from './tool/tool.js';
// Tracing runtime
export {
  addTraceProcessor,
  flushTraces,
  getTraceProcessors,
  setTraceProcessors,
  setTracingErrorHandler,
} from './tracing/processors.js';
export { getCurrentSpan, withCustomSpan, withMcpListToolsSpan } from './tracing/span-context.js';
// Tracing contract
export type {
  AgentSpanData,
  CustomSpanData,
  FunctionSpanData,
  GenerationSpanData,
  GuardrailSpanData,
  HandoffSpanData,
  McpListToolsSpanData,
  RealtimeSessionSpanData,
  Span,
  SpanData,
  SpanInterruption,
  SpanKind,
  SpeechGroupSpanData,
  SpeechSpanData,
  Trace,
  TracingProcessor,
  TranscriptionSpanData,
  TurnSpanData,
} from './tracing/span-types.js';
export { createTracer, Tracer, type TracerOptions } from './tracing/tracer.js';
