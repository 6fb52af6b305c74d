// Servers
export {
  DEFAULT_MCP_TIMEOUT_MS,
  MCPServer,
  type MCPServerOptions,
  type McpRequestOptions,
  type McpServerStatus,
} from './mcp-server.js';
export { MCPServerStdio, type MCPServerStdioOptions } from './mcp-server-stdio.js';
export { MCPServerStreamableHttp, type MCPServerStreamableHttpOptions } from './mcp-server-streamable-http.js';
export { MCPServerSSE, type MCPServerSSEOptions } from './mcp-server-sse.js';
export { MCPServerError, type McpFailureReason, type McpOperation } from './mcp-server-error.js';
export { connectServers, MCPServers, type MCPServersOptions, type McpConnectFailure } from './mcp-servers.js';
// Tools
export { exposedToolName, mcpTools, type McpToolsOptions } from './mcp-tools.js';
export { McpCapability, type McpCapabilityOptions } from './mcp-capability.js';
export { mcpResultToToolOutput, type McpResultOptions } from './convert-mcp-result.js';
export type { McpStaticToolFilter, McpToolFilter, McpToolFilterContext } from './tool-filter.js';
export type { McpApprovalPolicy, McpApprovalRequest } from './approval-policy.js';
// Logging and the tracing seam
export { consoleMcpLogger, type McpLogger } from './mcp-logger.js';
export type { McpListToolsEvent, OnListTools } from './list-tools-event.js';
// MCP SDK types that appear in this API
export type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
