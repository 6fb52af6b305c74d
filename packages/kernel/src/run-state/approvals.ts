/** Approval decisions of a run per tool name, "always" and per call (see `RunState.isApproved`). */
import type { SerializedRunStateV1 } from './run-state-schema.js';

/**
 * Per-tool decisions: `approved` / `rejected` are `true` ("always") or call ids; `messages` are
 * rejection messages by call id (or `'*'` for an always-reject).
 */
export type ToolApprovalRecord = SerializedRunStateV1['approvals'][string];

/** The decisions of a run, by tool name. */
export type ApprovalRecords = Record<string, ToolApprovalRecord>;

/** The decisions for a tool (own keys only: a tool may be named `toString`). */
function recordOf(records: ApprovalRecords, toolName: string): ToolApprovalRecord | undefined {
  return Object.hasOwn(records, toolName) ? records[toolName] : undefined;
}

/** `true` approved, `false` rejected, `undefined` undecided; a per-call decision wins. */
export function approvalDecision(
  records: ApprovalRecords,
  toolName: string,
  callId: string,
): boolean | undefined {
  const record = recordOf(records, toolName);
  if (!record) return undefined;
  const listed = (v: boolean | string[]) => Array.isArray(v) && v.includes(callId);
  if (listed(record.rejected)) return false;
  if (listed(record.approved)) return true;
  if (record.approved === true) return true;
  if (record.rejected === true) return false;
  return undefined;
}

/** The rejection message of a call (its own, else its tool's "always" one), if one was given. */
export function rejectionMessageOf(
  records: ApprovalRecords,
  toolName: string,
  callId: string,
): string | undefined {
  const record = recordOf(records, toolName);
  return record?.messages[callId] ?? record?.messages['*'];
}

/** Records a decision for `callId` (and, with `always`, for every undecided call of the tool). */
export function recordDecision(
  records: ApprovalRecords,
  decision: { toolName: string; callId: string; approved: boolean; always: boolean },
  message: string | undefined,
): void {
  const { toolName, callId, approved, always } = decision;
  let record = recordOf(records, toolName);
  if (!record) {
    record = { approved: [], rejected: [], messages: {} };
    records[toolName] = record;
  }
  const key = approved ? 'approved' : 'rejected';
  const other = approved ? 'rejected' : 'approved';
  if (always) record[key] = true;
  else if (record[key] !== true) (record[key] as string[]).push(callId);
  if (Array.isArray(record[other]))
    record[other] = (record[other] as string[]).filter((id) => id !== callId);
  else if (always) record[other] = [];
  if (!approved && message !== undefined) record.messages[always ? '*' : callId] = message;
}
