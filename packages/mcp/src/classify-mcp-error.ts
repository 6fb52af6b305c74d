/**
 * Classifies a failed MCP request: a timeout, an error answer from the server or an answer that
 * does not follow the MCP specification (the connection is fine), or a lost connection (anything
 * else: closed transport, failed fetch, broken pipe).
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { MCPServerError, type McpOperation, messageOf } from './mcp-server-error.js';

/** Turns a request error into an `MCPServerError` with `reason` `'timeout'`, `'protocol'` or `'unavailable'`. */
export function classifyRequestError(
  error: unknown,
  where: { serverName: string; operation: McpOperation; toolName?: string; timeoutMs: number },
): MCPServerError {
  const { serverName, operation, toolName, timeoutMs } = where;
  const what = operation === 'call_tool' ? `tools/call "${toolName}"` : 'tools/list';
  const fields = { serverName, operation, toolName, cause: error };
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return new MCPServerError(
      `MCP server "${serverName}" did not answer ${what} within ${timeoutMs} ms.`,
      {
        ...fields,
        reason: 'timeout',
        timeoutMs,
      },
    );
  }
  const issues = schemaIssues(error);
  if (issues !== undefined) {
    // The SDK refused the answer against the MCP schema: the server did answer (a tool call ran).
    return new MCPServerError(
      `MCP server "${serverName}" answered ${what} with a result that does not follow the MCP specification (${issues}). ${operation === 'call_tool' ? 'The tool ran on the server, but its result cannot be used; do not repeat the call unchanged. ' : ''}The connection stays open; fix the server or tell the user.`,
      { ...fields, reason: 'protocol' },
    );
  }
  if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
    return new MCPServerError(`MCP server "${serverName}" rejected ${what}: ${error.message}`, {
      ...fields,
      reason: 'protocol',
    });
  }
  return new MCPServerError(
    `MCP server "${serverName}" is unavailable: the connection was lost during ${what} (${messageOf(error)}), so it may or may not have run. The next call reconnects.`,
    { ...fields, reason: 'unavailable' },
  );
}

/**
 * The issues of a schema validation error (the MCP SDK rejects a result that fails its zod schema
 * with the zod error itself: `ZodError`, or `$ZodError` from zod/mini), as `path: message; …` (at
 * most 3), or `undefined` for other errors.
 */
function schemaIssues(error: unknown): string | undefined {
  if (!(error instanceof Error) || !/^\$?ZodError$/.test(error.name)) return undefined;
  const issues = (error as { issues?: unknown }).issues;
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  return issues
    .slice(0, 3)
    .map((issue: { path?: unknown; message?: unknown }) => {
      const path =
        Array.isArray(issue?.path) && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      return `${path}${String(issue?.message ?? 'invalid')}`;
    })
    .join('; ');
}
