/**
 * The zod schema of the serialized `RunState`, formats "1.0" and "1.1" (1.1 only adds optional
 * fields and allows `maxTurns: null`; see run-state-versions.md), built on first use. The
 * published JSON Schema (`run-state.schema.json`) is generated from it
 * (`npm run schema -w @baton/kernel`).
 */
import type { z as ZodNamespace } from 'zod';
import { functionCallSpec, type ItemSchemas, itemSpec } from '../items/item-schemas.js';
import type { FunctionCallItem, HostedItem, Item } from '../items/item-types.js';
import {
  any,
  arrayOf,
  as,
  bool,
  either,
  int,
  lit,
  loose,
  nonEmptyStr,
  nul,
  num,
  object,
  oneOf,
  opt,
  record,
  type Spec,
  str,
  type Z,
} from '../items/spec.js';

// Typed as the kernel's item types (the schemas check the fields the kernel relies on).
const item = as<Item>(itemSpec);
const functionCall = as<FunctionCallItem>(functionCallSpec);
const usage = object({
  requests: num,
  inputTokens: num,
  outputTokens: num,
  totalTokens: num,
  cachedInputTokens: opt(num),
  cacheCreationInputTokens: opt(num),
  reasoningTokens: opt(num),
});
const runItemShape = {
  type: oneOf([
    'message_output_item',
    'tool_call_item',
    'tool_call_output_item',
    'handoff_call_item',
    'handoff_output_item',
    'reasoning_item',
    'tool_approval_item',
  ]),
  agent: str,
  raw_item: item,
  source_agent: opt(str),
  target_agent: opt(str),
  tool_name: opt(str),
  call_id: opt(str),
  arguments: opt(str),
  path: opt(arrayOf(str)),
  kind: opt(oneOf(['approval', 'in_doubt'])),
};
const runItem = loose(runItemShape);
// Only approval items pause a run (another item here would break the resume).
const interruption = loose({
  ...runItemShape,
  type: lit('tool_approval_item'),
  tool_name: str,
  call_id: str,
});
const guardrailResult = loose({
  guardrailName: str,
  agentName: str,
  output: loose({ tripwireTriggered: bool }),
});
const toolGuardrailResult = loose({
  guardrailName: str,
  toolName: str,
  callId: str,
  output: loose({}),
});
const decision = either(bool, arrayOf(str));
const approvalRecord = object({ approved: decision, rejected: decision, messages: record(str) });
const count = int(0);
const base = object({
  schemaVersion: oneOf(['1.0', '1.1']),
  runId: str,
  startingAgent: str,
  currentAgent: str,
  originalInput: arrayOf(item),
  generatedItems: arrayOf(runItem),
  modelResponses: arrayOf(
    loose({
      // Only returned as `rawResponses` (the loop reads the generated items), so checked lightly.
      output: opt(arrayOf(as<Item>(loose({ type: str })))),
      usage: loose({}),
      responseId: opt(str),
      modelName: opt(str),
    }),
  ),
  currentTurn: count,
  maxTurns: nul(int(1)),
  usage,
  inputGuardrailResults: arrayOf(guardrailResult),
  outputGuardrailResults: arrayOf(guardrailResult),
  toolInputGuardrailResults: arrayOf(toolGuardrailResult),
  toolOutputGuardrailResults: arrayOf(toolGuardrailResult),
  pendingTurn: opt(
    object({
      functionCalls: arrayOf(functionCall),
      handoffCall: opt(functionCall),
      ignoredHandoffCalls: arrayOf(functionCall),
      hostedApprovalRequests: opt(arrayOf(as<HostedItem>(itemSpec))),
      judging: opt(record(any)),
    }),
  ),
  interruptions: arrayOf(interruption),
  approvals: record(approvalRecord),
  sessionSavedCount: count,
  inputSavedToSession: bool,
  pendingSessionWrite: opt(
    object({ appendId: nonEmptyStr, items: arrayOf(item), upTo: opt(count) }),
  ),
  sessionId: opt(nul(str)),
  resumeGeneration: opt(count),
  trace: opt(
    object({ traceId: str, workflowName: str, groupId: opt(str), metadata: opt(record(any)) }),
  ),
  tracing: opt(object({ disabled: opt(bool), includeSensitiveData: opt(bool) })),
  modelInputOverride: opt(object({ items: arrayOf(item), fromGeneratedIndex: count })),
  serverConversation: opt(
    object({
      previousResponseId: opt(str),
      conversationId: opt(str),
      auto: bool,
      sentCount: num,
    }),
  ),
  agentsUsedTools: arrayOf(str),
  agentStarted: bool,
  hasFinalOutput: opt(bool),
  endHooksPending: opt(bool),
  finalOutput: opt(any),
  extensions: opt(record(any)),
});

/**
 * Builds the RunState 1.x zod schema with the given zod namespace (`items`: kept for callers
 * that pass the item schemas; they are the same instances `createItemSchemas(z)` returns).
 */
export function createRunStateSchemaV1(z: Z, _items?: ItemSchemas) {
  /** Schema of a serialized RunState, format 1.x (nested states recursive). */
  let nested: ZodNamespace.ZodRecord<ZodNamespace.ZodString, typeof schema> | undefined;
  const schema = base.zod(z).extend({
    // Built once: a fresh record schema per access would be recompiled on every parse.
    get nestedStates(): ZodNamespace.ZodRecord<ZodNamespace.ZodString, typeof schema> {
      nested ??= z.record(z.string(), schema);
      return nested;
    },
  });
  return schema;
}

type Schema = ReturnType<typeof createRunStateSchemaV1>;
/** The serialized RunState, formats "1.0" and "1.1" (see run-state-versions.md). */
export type SerializedRunStateV1 = ZodNamespace.infer<Schema>;
/** One serialized run item: the item plus agent names. */
export type SerializedRunItemV1 = SerializedRunStateV1['generatedItems'][number];

/** The RunState 1.x check without zod (what `createRunStateSchemaV1` checks, nested states too). */
export const runStateSpec: Pick<Spec, 'check'> = {
  check(value) {
    const issue = base.check(value);
    if (issue) return issue;
    const inner = nestedStates.check((value as Record<string, unknown>).nestedStates);
    return inner && { path: ['nestedStates', ...inner.path], message: inner.message };
  },
};
const nestedStates = record(runStateSpec as Spec);

let cached: Promise<Schema> | undefined;
/** The RunState 1.x zod schema (loads zod on first call). */
export function loadRunStateSchemaV1(): Promise<Schema> {
  cached ??= import('zod').then(({ z }) => createRunStateSchemaV1(z));
  return cached;
}
