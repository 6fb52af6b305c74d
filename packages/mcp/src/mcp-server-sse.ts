import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { httpTransportOptions } from './http-transport-options.js';
import type { MCPHttpServerOptions } from './mcp-http-options.js';
import type { McpTransport } from './mcp-sdk-types.js';
import { MCPServer } from './mcp-server.js';

/** Options of {@link MCPServerSSE}: `url` is the SSE endpoint, e.g. `http://127.0.0.1:3001/sse`. */
export type MCPServerSSEOptions<TContext = any> = MCPHttpServerOptions<TContext>;

/**
 * An MCP server reached over the older HTTP+SSE transport (MCP 2024-11-05; the SDK's
 * `SSEClientTransport`, deprecated there in favour of Streamable HTTP). Use it for servers that
 * have not moved to Streamable HTTP. Default name: the URL's host and path. When the event
 * stream breaks (the server died mid-call), the server is pinged: if it does not answer, the
 * calls in flight fail as `'unavailable'` at once rather than after `timeoutMs`.
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

  protected createTransport(): McpTransport {
    return new SSEClientTransport(this.url, httpTransportOptions(this.options));
  }

  protected onTransportError(error: Error, probe: () => Promise<void>): void {
    // The SDK reports a broken event stream as "SSE error: …" and retries it in the background.
    if (error.message.startsWith('SSE error')) void probe();
  }
}
