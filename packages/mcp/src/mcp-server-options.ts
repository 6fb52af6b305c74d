/** Options of the MCP server classes. */
import type { McpApprovalPolicy } from './approval-policy.js';
import type { OnListTools } from './list-tools-event.js';
import type { McpLogger } from './mcp-logger.js';
import type { McpToolFilter } from './tool-filter.js';

/** Default per-request limit, the MCP SDK's own default. */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

/**
 * Connection state: `'idle'` (never connected), `'connecting'`, `'connected'`, `'broken'` (the
 * connection dropped; the next operation reconnects once), `'closed'` (the owner closed it).
 */
export type McpServerStatus = 'idle' | 'connecting' | 'connected' | 'broken' | 'closed';

/** Options shared by every MCP server class. */
export interface MCPServerOptions<TContext = any> {
  /** Shown in errors, logs, traces and (with `includeServerInToolNames`) tool names. */
  name?: string;
  /** Keep the `tools/list` result until `invalidateToolsCache()` or a list_changed notification. Default false. */
  cacheToolsList?: boolean;
  /** Limit for each `tools/list` and `tools/call` request in milliseconds. Default 60 000. */
  timeoutMs?: number;
  /** Limit for starting the server and the `initialize` handshake in milliseconds. Default 60 000. */
  connectTimeoutMs?: number;
  /** Which of this server's tools an agent gets. Default: all. */
  toolFilter?: McpToolFilter<TContext>;
  /** Prepended to this server's tool names (e.g. `'fs_'`) to avoid collisions. */
  toolNamePrefix?: string;
  /** Which calls need approval. Default `'never'`. */
  requireApproval?: McpApprovalPolicy<TContext>;
  /** Give the model `structuredContent` (as JSON) instead of the text content. Default false. */
  useStructuredContent?: boolean;
  /** Default {@link consoleMcpLogger}. */
  logger?: McpLogger;
  /** Tracing seam: called after every tools/list round trip (see `McpListToolsEvent`). */
  onListTools?: OnListTools;
  /** Called when the server sends `notifications/tools/list_changed` (after the cache is invalidated). */
  onToolsListChanged?: () => void;
  /** Client name and version sent in `initialize`. Default `{ name: 'baton', version: '0.1.0' }`. */
  clientInfo?: { name: string; version: string };
}

/** Per-request options. */
export interface McpRequestOptions {
  /** Aborts the request (the SDK sends `notifications/cancelled`). The abort reason is rethrown. */
  signal?: AbortSignal;
  /** Overrides the server's `timeoutMs` for this request. */
  timeoutMs?: number;
}
