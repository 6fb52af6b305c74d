/** What the two HTTP transports (Streamable HTTP and the older HTTP+SSE) share. */
import type { McpFetch, McpOAuthClientProvider } from './mcp-sdk-types.js';
import type { MCPServerOptions } from './mcp-server-options.js';

/** Options of an MCP server reached over HTTP. */
export interface MCPHttpServerOptions<TContext = any> extends MCPServerOptions<TContext> {
  /** The endpoint, e.g. `http://127.0.0.1:3001/mcp` (Streamable HTTP) or `…/sse` (SSE). */
  url: string | URL;
  /** Headers sent with every request (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** More `fetch` options for every request; `headers` above are merged over its headers. */
  requestInit?: RequestInit;
  /** A custom `fetch` (default: the global one). */
  fetch?: McpFetch;
  /** OAuth, as the SDK's HTTP transports support it (an SDK `OAuthClientProvider`). */
  authProvider?: McpOAuthClientProvider;
}
