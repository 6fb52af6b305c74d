import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { MCPServer } from './mcp-server.js';
import type { MCPServerOptions } from './mcp-server-options.js';
import { toRecord } from './mcp-server-streamable-http.js';

/** Options of {@link MCPServerSSE}. */
export interface MCPServerSSEOptions<TContext = any> extends MCPServerOptions<TContext> {
  /** The SSE endpoint, e.g. `http://127.0.0.1:3001/sse`. */
  url: string | URL;
  /** Headers sent with the event stream request and every POST. */
  headers?: Record<string, string>;
  /** More `fetch` options for the POSTs; `headers` above are merged over its headers. */
  requestInit?: RequestInit;
  /** A custom `fetch`. */
  fetch?: FetchLike;
  /** OAuth, as the SDK's `SSEClientTransport` supports it. */
  authProvider?: OAuthClientProvider;
}

/**
 * An MCP server reached over the older HTTP+SSE transport (MCP 2024-11-05; the SDK's
 * `SSEClientTransport`, deprecated there in favour of Streamable HTTP). Use it for servers that
 * have not moved to Streamable HTTP. Default name: the URL's host and path.
 */
export class MCPServerSSE<TContext = any> extends MCPServer<TContext> {
  readonly url: URL;
  private readonly options: MCPServerSSEOptions<TContext>;

  constructor(options: MCPServerSSEOptions<TContext>) {
    const url = new URL(options.url);
    super(`${url.host}${url.pathname}`, options);
    this.url = url;
    this.options = options;
  }

  protected createTransport(): Transport {
    const { requestInit, headers } = this.options;
    return new SSEClientTransport(this.url, {
      requestInit: { ...requestInit, headers: { ...toRecord(requestInit?.headers), ...headers } },
      fetch: this.options.fetch,
      authProvider: this.options.authProvider,
    });
  }
}
