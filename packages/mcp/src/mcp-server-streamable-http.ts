import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { httpTransportOptions } from './http-transport-options.js';
import type { MCPHttpServerOptions } from './mcp-http-options.js';
import type { McpTransport } from './mcp-sdk-types.js';
import { MCPServer } from './mcp-server.js';

/** Options of {@link MCPServerStreamableHttp}: `url` is the MCP endpoint, e.g. `http://127.0.0.1:3001/mcp`. */
export type MCPServerStreamableHttpOptions<TContext = any> = MCPHttpServerOptions<TContext>;

/**
 * The transport errors of a response stream that broke (the SDK reports them and may try to
 * resume the stream, but a request waiting on it stays pending until its timeout).
 */
const STREAM_LOST = /^(SSE stream disconnected|Failed to reconnect|Maximum reconnection attempts)/;

/**
 * An MCP server reached over Streamable HTTP (the SDK's `StreamableHTTPClientTransport`).
 * `close()` terminates the session (HTTP DELETE) before closing. Default name: the URL's host
 * and path. When a response stream breaks (the server died or restarted mid-call), the server
 * is pinged: if it does not answer in its session, the connection counts as lost at once and
 * the calls in flight fail as `'unavailable'` rather than after `timeoutMs`.
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

  protected createTransport(): McpTransport {
    return new StreamableHTTPClientTransport(this.url, httpTransportOptions(this.options));
  }

  protected onTransportError(error: Error, probe: () => Promise<void>): void {
    if (STREAM_LOST.test(error.message)) void probe();
  }

  protected async beforeClose(transport: McpTransport): Promise<void> {
    await (transport as StreamableHTTPClientTransport).terminateSession();
  }
}
