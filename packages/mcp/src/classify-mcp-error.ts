/**
 * Classifies a failed MCP request: a timeout, an error answer from the server (the connection
 * is fine), or a lost connection (anything else: closed transport, failed fetch, broken pipe).
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
