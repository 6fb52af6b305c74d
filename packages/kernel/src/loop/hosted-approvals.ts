/**
 * Hosted-tool approval requests (Responses `mcp_approval_request`), each answered once with an
 * `mcp_approval_response`: from the run's decisions (by the request's `name` and `id`), else the
 * hosted tool's `onApproval`, else the run pauses with a `tool_approval_item`.
 */
import type { HostedItem } from '../items/item-types.js';
import type { RunItem, ToolApprovalRunItem } from '../items/run-items.js';
import { recordDecision } from '../run-state/approvals.js';
import type { TurnPlan } from './prepare-turn.js';
import { type AnyAgent, isAnswered, type RunRuntime } from './run-runtime.js';
import { untilAborted } from './until-aborted.js';

/** Answers (`outputs`) and still undecided requests (`approvals`) of one turn. */
export async function decideHostedApprovals(
  rt: RunRuntime,
  plan: TurnPlan,
  requests: HostedItem[] = [],
): Promise<{ outputs: RunItem<AnyAgent>[]; approvals: ToolApprovalRunItem<AnyAgent>[] }> {
  const { state } = rt;
  const agent = plan.agent;
  const outputs: RunItem<AnyAgent>[] = [];
  const approvals: ToolApprovalRunItem<AnyAgent>[] = [];
  for (const request of requests) {
    const id = String(request.id);
    const name = String(request.name);
    if (isAnswered(rt, id)) continue;
    let approve = state.isApproved(name, id);
    let reason = approve === false ? state.rejectionMessage(name, id) : undefined;
    const tool = plan.hostedTools.find(
      (t) => t.providerData.server_label === request.server_label && t.onApproval,
    );
    if (approve === undefined && tool) {
      const decision = await untilAborted(
        () => tool.onApproval!(state.context, request),
        rt.signal,
      );
      approve = decision.approve === true;
      reason = approve ? undefined : decision.reason;
      recordDecision(
        state.approvals,
        { toolName: name, callId: id, approved: approve, always: false },
        reason,
      );
    }
    if (approve === undefined) {
      approvals.push({
        type: 'tool_approval_item',
        agent,
        raw_item: request,
        tool_name: name,
        call_id: id,
        // A string by the item schema (`mcp_approval_request.arguments`), like `id` and `name`.
        arguments: String(request.arguments),
        path: [],
      });
      continue;
    }
    const raw: HostedItem = { type: 'mcp_approval_response', approval_request_id: id, approve };
    if (reason !== undefined) raw.reason = reason;
    outputs.push({ type: 'tool_call_output_item', agent, raw_item: raw, output: undefined });
  }
  return { outputs, approvals };
}
