/**
 * When an MCP tool call needs a person's approval. The result becomes the function tool's
 * `needsApproval`, so the run pauses with an ordinary `tool_approval_item` interruption.
 */
import type { RunContext } from '@baton/kernel';

/** What an approval function receives. `toolName` is the server's own name for the tool. */
export interface McpApprovalRequest<TContext = any> {
  runContext: RunContext<TContext>;
  serverName: string;
  toolName: string;
  arguments: Record<string, unknown>;
  callId: string;
}

/**
 * `'always'`, `'never'` (default), `{ toolNames }` (those tools need approval, others do not),
 * or a function deciding per call.
 */
export type McpApprovalPolicy<TContext = any> =
  | 'always'
  | 'never'
  | { toolNames: string[] }
  | ((request: McpApprovalRequest<TContext>) => boolean | Promise<boolean>);

type NeedsApproval = (
  ctx: RunContext<any>,
  args: any,
  callId: string,
) => boolean | Promise<boolean>;

/**
 * Combines policies (server-level and `mcpTools`-level): approval is needed when any says so.
 * Returns a constant when no policy depends on the call.
 */
export function toNeedsApproval(
  policies: (McpApprovalPolicy | undefined)[],
  serverName: string,
  toolName: string,
): boolean | NeedsApproval {
  const dynamic: Exclude<McpApprovalPolicy, 'always' | 'never' | { toolNames: string[] }>[] = [];
  for (const policy of policies) {
    if (policy === undefined || policy === 'never') continue;
    if (policy === 'always') return true;
    if (typeof policy === 'function') dynamic.push(policy);
    else if (Array.isArray(policy.toolNames) && policy.toolNames.includes(toolName)) return true;
  }
  if (dynamic.length === 0) return false;
  return async (runContext, args, callId) => {
    for (const decide of dynamic) {
      if (await decide({ runContext, serverName, toolName, arguments: args ?? {}, callId }))
        return true;
    }
    return false;
  };
}
