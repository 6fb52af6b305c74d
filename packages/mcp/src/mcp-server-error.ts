import { BatonError } from '@baton/kernel';

/**
 * Why an MCP operation failed:
 * - `'unavailable'`: the server could not be reached (it crashed, its transport dropped, it
 *   would not start or reconnect);
 * - `'timeout'`: no answer within the server's `timeoutMs`;
 * - `'closed'`: the owner closed the server;
 * - `'not_connected'`: `connect()` was never called;
 * - `'protocol'`: the server answered with a JSON-RPC error (unknown tool, invalid request).
 */
export type McpFailureReason = 'unavailable' | 'timeout' | 'closed' | 'not_connected' | 'protocol';

/** The operation that failed. */
export type McpOperation = 'connect' | 'list_tools' | 'call_tool';

/**
 * An MCP server operation failed. Thrown by `MCPServer.connect()`, `listTools()` and
 * `callTool()`, and by `MCPServers.connect()` in strict mode. Inside a run, the function tools
 * built by `mcpTools` / `McpCapability` turn it into a model-visible `ToolInputError` (or a
 * `ToolTimeoutError` for `'timeout'`), so the model sees what happened.
 */
export class MCPServerError extends BatonError {
  readonly serverName: string;
  readonly operation: McpOperation;
  readonly reason: McpFailureReason;
  /** The MCP tool name for `call_tool`. */
  readonly toolName?: string;
  /** The limit that was exceeded, for `'timeout'`. */
  readonly timeoutMs?: number;
  constructor(
    message: string,
    fields: {
      serverName: string;
      operation: McpOperation;
      reason: McpFailureReason;
      toolName?: string;
      timeoutMs?: number;
      cause?: unknown;
    },
  ) {
    super(message, { cause: fields.cause });
    this.serverName = fields.serverName;
    this.operation = fields.operation;
    this.reason = fields.reason;
    this.toolName = fields.toolName;
    this.timeoutMs = fields.timeoutMs;
  }
}

/** The message of an error, or its string form. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
