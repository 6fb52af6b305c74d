// Servers

// MCP SDK types that appear in this API
export type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
export type { McpApprovalPolicy, McpApprovalRequest } from './approval-policy.js';
export { type McpResultOptions, mcpResultToToolOutput } from './convert-mcp-result.js';
export type { McpListToolsEvent, OnListTools } from './list-tools-event.js';
export { McpCapability, type McpCapabilityOptions } from './mcp-capability.js';
export type { MCPHttpServerOptions } from './mcp-http-options.js';
// Logging and the tracing seam
export { consoleMcpLogger, type McpLogger } from './mcp-logger.js';
export type {
  McpFetch,
  McpOAuthClientProvider,
  McpOAuthDiscoveryState,
  McpTransport,
  McpTransportSendOptions,
} from './mcp-sdk-types.js';
export { MCPServer } from './mcp-server.js';
export { MCPServerError, type McpFailureReason, type McpOperation } from './mcp-server-error.js';
export {
  DEFAULT_MCP_TIMEOUT_MS,
  type MCPServerOptions,
  type McpRequestOptions,
  type McpServerStatus,
} from './mcp-server-options.js';
export { MCPServerSSE, type MCPServerSSEOptions } from './mcp-server-sse.js';
export { MCPServerStdio, type MCPServerStdioOptions } from './mcp-server-stdio.js';
export {
  MCPServerStreamableHttp,
  type MCPServerStreamableHttpOptions,
} from './mcp-server-streamable-http.js';
export {
  connectServers,
  MCPServers,
  type MCPServersOptions,
  type McpConnectFailure,
} from './mcp-servers.js';
// Tools
export { exposedToolName, type McpToolsOptions, mcpTools } from './mcp-tools.js';
export type { McpStaticToolFilter, McpToolFilter, McpToolFilterContext } from './tool-filter.js';
