// The public API. Modules re-exported whole (`export *`) hold only public exports;
// public-api.test.ts lists every runtime export, so nothing becomes public unnoticed.
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
export * from './agent/hooks.js';
export type { Capability, CapabilityRun, RunOutcome } from './capability/capability.js';
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
export * from './guardrail/guardrail.js';
export {
  type ToolGuardrailBehavior,
  type ToolGuardrailOutput,
  type ToolGuardrailResult,
  type ToolInputGuardrail,
  type ToolOutputGuardrail,
  toolInputGuardrail,
  toolOutputGuardrail,
} from './guardrail/tool-guardrail.js';
export {
  defaultHandoffToolName,
  type Handoff,
  type HandoffInputData,
  type HandoffInputFilter,
  type HandoffOptions,
  handoff,
} from './handoff/handoff.js';
export * from './handoff/handoff-filters.js';
export * from './items/item-helpers.js';
export {
  createItemSchemas,
  findItemIssue,
  type ItemSchemas,
  loadItemSchemas,
  MAX_ITEM_DEPTH,
} from './items/item-schemas.js';
export * from './items/item-types.js';
export * from './items/run-items.js';
export { IGNORED_HANDOFF_TEXT } from './loop/execute-handoff.js';
export { DEFAULT_REJECTION_TEXT } from './loop/execute-tools.js';
export * from './loop/next-step.js';
export { backoffDelayMs } from './loop/retry.js';
export * from './loop/run.js';
export { RunContext } from './loop/run-context.js';
export * from './loop/run-events.js';
export { OUTPUT_GUARDRAIL_WITHHELD_TEXT } from './loop/run-guardrails.js';
export * from './loop/run-options.js';
export { RunResult, RunResultBase, StreamedRunResult } from './loop/run-result.js';
export * from './loop/run-tool-call.js';
export { readSessionHistory } from './loop/session-io.js';
export * from './model/model.js';
export * from './model/provider-registry.js';
export * from './model/usage.js';
export type { ApprovalRecords, ToolApprovalRecord } from './run-state/approvals.js';
export * from './run-state/run-state.js';
export { MAX_RUN_STATE_DEPTH } from './run-state/run-state-json.js';
export {
  createRunStateSchemaV1,
  loadRunStateSchemaV1,
  type SerializedRunItemV1,
  type SerializedRunStateV1,
} from './run-state/run-state-schema.js';
export * from './session/memory-session.js';
export * from './session/session.js';
export * from './session/session-args.js';
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
export {
  addTraceProcessor,
  flushTraces,
  getTraceProcessors,
  setTraceProcessors,
  setTracingErrorHandler,
} from './tracing/processors.js';
export { getCurrentSpan, withCustomSpan, withMcpListToolsSpan } from './tracing/span-context.js';
export * from './tracing/span-types.js';
export { createTracer, Tracer, type TracerOptions } from './tracing/tracer.js';
