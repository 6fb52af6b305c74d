import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { MCPServer } from './mcp-server.js';
import type { MCPServerOptions } from './mcp-server-options.js';

/** Options of {@link MCPServerStreamableHttp}. */
export interface MCPServerStreamableHttpOptions<TContext = any> extends MCPServerOptions<TContext> {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3001/mcp`. */
  url: string | URL;
  /** Headers sent with every request (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** More `fetch` options for every request; `headers` above are merged over its headers. */
  requestInit?: RequestInit;
  /** A custom `fetch`. */
  fetch?: FetchLike;
  /** OAuth, as the SDK's `StreamableHTTPClientTransport` supports it. */
  authProvider?: OAuthClientProvider;
}

/**
 * An MCP server reached over Streamable HTTP (the SDK's `StreamableHTTPClientTransport`).
 * `close()` terminates the session (HTTP DELETE) before closing. Default name: the URL's host
 * and path.
 */
export class MCPServerStreamableHttp<TContext = any> extends MCPServer<TContext> {
  readonly url: URL;
  private readonly options: MCPServerStreamableHttpOptions<TContext>;

  constructor(options: MCPServerStreamableHttpOptions<TContext>) {
    const url = new URL(options.url);
    super(`${url.host}${url.pathname}`, options);
    this.url = url;
    this.options = options;
  }

  protected createTransport(): Transport {
    const { requestInit, headers } = this.options;
    return new StreamableHTTPClientTransport(this.url, {
      requestInit: { ...requestInit, headers: { ...toRecord(requestInit?.headers), ...headers } },
      fetch: this.options.fetch,
      authProvider: this.options.authProvider,
    });
  }

  protected async beforeClose(transport: Transport): Promise<void> {
    await (transport as StreamableHTTPClientTransport).terminateSession();
  }
}

/** `HeadersInit` → a plain record (so headers can be merged). */
export function toRecord(headers: HeadersInit | undefined): Record<string, string> {
  if (!headers) return {};
  return Object.fromEntries(new Headers(headers).entries());
}
