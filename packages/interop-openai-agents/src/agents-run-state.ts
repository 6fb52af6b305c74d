/**
 * The parts of a `RunState` serialized by `@openai/agents` (`state.toString()`, schema versions
 * 1.0–1.22 as of 0.20; see their `packages/agents-core/src/runState.ts`) that the importer reads,
 * as a zod schema (loose: the many other fields pass), and their approval records in Baton's form.
 */
import type { ToolApprovalRecord } from '@baton/kernel';
import { z } from 'zod';

/** The newest `$schemaVersion` minor of the 1.x line this importer knows (@openai/agents 0.20). */
export const NEWEST_KNOWN_MINOR = 22;

const agentRef = z.looseObject({ name: z.string(), identity: z.string().optional() });
const details = z
  .union([z.record(z.string(), z.number()), z.array(z.record(z.string(), z.number()))])
  .optional();
const usage = z.looseObject({
  requests: z.number().optional(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  totalTokens: z.number(),
  inputTokensDetails: details,
  outputTokensDetails: details,
});
const decision = z.union([z.boolean(), z.array(z.string())]);
const approvalRecord = z.looseObject({
  approved: decision,
  rejected: decision,
  messages: z.record(z.string(), z.string()).optional(),
  stickyRejectMessage: z.string().optional(),
});
const records = z.record(z.string(), approvalRecord);
const perAgent = z.array(z.looseObject({ agentIdentity: z.string(), approvals: records }));
const runItem = z.looseObject({
  type: z.string(),
  rawItem: z.unknown().optional(),
  agent: agentRef.optional(),
  sourceAgent: agentRef.optional(),
  targetAgent: agentRef.optional(),
  toolName: z.string().optional(),
  functionToolStateKey: z.string().optional(),
});
const guardrail = z.looseObject({
  guardrail: z.looseObject({ name: z.string() }),
  output: z.looseObject({}),
  agent: agentRef.optional(),
});
const calls = z.array(z.looseObject({ toolCall: z.unknown() })).optional();

/** What the importer reads of an `@openai/agents` serialized RunState. */
export const agentsRunStateSchema = z.looseObject({
  $schemaVersion: z.string(),
  currentTurn: z.number().int().min(0),
  currentAgent: agentRef,
  originalInput: z.union([z.string(), z.array(z.unknown())]),
  pendingInput: z.array(z.unknown()).optional(),
  modelResponses: z.array(
    z.looseObject({
      usage,
      output: z.array(z.unknown()).optional(),
      responseId: z.string().optional(),
    }),
  ),
  context: z.looseObject({
    usage,
    approvals: records,
    functionApprovals: perAgent.optional(),
    legacyFunctionApprovals: records.optional(),
    hostedMcpApprovals: records.optional(),
    approvalInvocations: perAgent.optional(),
    context: z.unknown().optional(),
  }),
  toolUseTracker: z.record(z.string(), z.array(z.string())).optional(),
  maxTurns: z.number().nullable().optional(),
  noActiveAgentRun: z.boolean().optional(),
  inputGuardrailResults: z.array(guardrail).optional(),
  outputGuardrailResults: z.array(guardrail).optional(),
  toolInputGuardrailResults: z.array(guardrail).optional(),
  toolOutputGuardrailResults: z.array(guardrail).optional(),
  currentStep: z.looseObject({ type: z.string() }).optional(),
  generatedItems: z.array(runItem),
  lastProcessedResponse: z
    .looseObject({
      functions: calls,
      handoffs: z
        .array(z.looseObject({ toolCall: z.unknown(), targetAgent: agentRef.optional() }))
        .optional(),
      computerActions: calls,
      shellActions: calls,
      applyPatchActions: calls,
      mcpApprovalRequests: z.array(z.unknown()).optional(),
    })
    .optional(),
  pendingAgentToolRuns: z.record(z.string(), z.string()).optional(),
  pendingSessionWrite: z.unknown().optional(),
  pendingSessionHistoryTransaction: z.unknown().optional(),
  conversationId: z.string().optional(),
  previousResponseId: z.string().optional(),
  trace: z
    .looseObject({
      id: z.string(),
      workflow_name: z.string(),
      group_id: z.string().nullable().optional(),
      metadata: z.record(z.string(), z.unknown()).optional(),
    })
    .nullable()
    .optional(),
  sandbox: z.unknown().optional(),
});

/** An `@openai/agents` serialized RunState (the fields the importer reads). */
export type AgentsRunState = z.infer<typeof agentsRunStateSchema>;
type AgentsRecord = z.infer<typeof approvalRecord>;

/**
 * The tool name a function-tool state key of 1.16+ stands for (`["bare","refund"]` → `refund`,
 * `["namespaced","crm","lookup"]` → `crm.lookup`); other keys are tool names already.
 */
export function toolNameOfKey(key: string): string {
  if (!key.startsWith('[')) return key;
  try {
    const parts = JSON.parse(key) as unknown[];
    if ((parts[0] === 'bare' || parts[0] === 'deferred_top_level') && typeof parts[1] === 'string')
      return parts[1];
    if (parts[0] === 'namespaced' && typeof parts[2] === 'string') return `${parts[1]}.${parts[2]}`;
    // Hosted MCP approvals: ["hosted_mcp", serverLabel, toolName]; Baton keys them by tool name.
    if (parts[0] === 'hosted_mcp' && typeof parts[2] === 'string') return parts[2];
  } catch {
    // not a state key
  }
  return key;
}

/**
 * The approval decisions of the run's context (`approvals`, `legacyFunctionApprovals`,
 * `hostedMcpApprovals`, per-agent `functionApprovals` and `approvalInvocations`) as Baton's
 * per-tool records. Baton
 * keeps decisions per tool name (not per agent). A decision for one call beats an "always"
 * decision for its tool, as in @openai/agents ≥ 0.19 (state 1.19): an "always approve" with
 * per-call rejections becomes the list of approved calls (later calls ask again).
 */
export function approvalsOf(
  context: AgentsRunState['context'],
): Record<string, ToolApprovalRecord> {
  const all: [string, AgentsRecord][] = [
    ...Object.entries(context.approvals),
    ...Object.entries(context.legacyFunctionApprovals ?? {}),
    ...Object.entries(context.hostedMcpApprovals ?? {}),
    ...(context.functionApprovals ?? []).flatMap((a) => Object.entries(a.approvals)),
    ...(context.approvalInvocations ?? []).flatMap((a) => Object.entries(a.approvals)),
  ];
  const merged = new Map<
    string,
    {
      ok: Set<string>;
      no: Set<string>;
      okAll: boolean;
      noAll: boolean;
      messages: Record<string, string>;
    }
  >();
  for (const [key, record] of all) {
    const name = toolNameOfKey(key);
    let m = merged.get(name);
    if (!m) {
      m = { ok: new Set(), no: new Set(), okAll: false, noAll: false, messages: {} };
      merged.set(name, m);
    }
    if (record.approved === true) m.okAll = true;
    else if (Array.isArray(record.approved)) for (const id of record.approved) m.ok.add(id);
    if (record.rejected === true) m.noAll = true;
    else if (Array.isArray(record.rejected)) for (const id of record.rejected) m.no.add(id);
    Object.assign(m.messages, record.messages);
    if (record.stickyRejectMessage !== undefined) m.messages['*'] = record.stickyRejectMessage;
  }
  const out: Record<string, ToolApprovalRecord> = {};
  for (const [name, m] of merged) {
    // A call both approved and rejected counts as rejected (Baton reads `approved` first).
    out[name] = {
      approved:
        m.okAll && !m.noAll && m.no.size === 0 ? true : [...m.ok].filter((id) => !m.no.has(id)),
      rejected: m.noAll ? true : [...m.no],
      messages: m.messages,
    };
  }
  return out;
}
