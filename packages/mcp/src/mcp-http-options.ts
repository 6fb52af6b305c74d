/** What the two HTTP transports (Streamable HTTP and the older HTTP+SSE) share. */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { MCPServerOptions } from './mcp-server-options.js';

/** Options of an MCP server reached over HTTP. */
export interface MCPHttpServerOptions<TContext = any> extends MCPServerOptions<TContext> {
  /** The endpoint, e.g. `http://127.0.0.1:3001/mcp` (Streamable HTTP) or `…/sse` (SSE). */
  url: string | URL;
  /** Headers sent with every request (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** More `fetch` options for every request; `headers` above are merged over its headers. */
  requestInit?: RequestInit;
  /** A custom `fetch`. */
  fetch?: FetchLike;
  /** OAuth, as the SDK's HTTP transports support it. */
  authProvider?: OAuthClientProvider;
}

/** The SDK transport options for `options` (headers merged over `requestInit.headers`). */
export function httpTransportOptions(options: MCPHttpServerOptions) {
  const { requestInit, headers } = options;
  return {
    requestInit: { ...requestInit, headers: { ...toRecord(requestInit?.headers), ...headers } },
    fetch: options.fetch,
    authProvider: options.authProvider,
  };
}

/** `HeadersInit` as a plain record. */
export function toRecord(headers: HeadersInit | undefined): Record<string, string> {
  if (!headers) return {};
  return Object.fromEntries(new Headers(headers).entries());
}
