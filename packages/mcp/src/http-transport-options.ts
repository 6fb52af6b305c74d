/** The SDK transport options of the two HTTP transports (Streamable HTTP and HTTP+SSE). */
import type { MCPHttpServerOptions } from './mcp-http-options.js';
import type { McpFetch, McpOAuthClientProvider } from './mcp-sdk-types.js';

/** The SDK transport options for `options` (headers merged over `requestInit.headers`). */
export function httpTransportOptions(options: MCPHttpServerOptions): {
  requestInit: RequestInit;
  fetch?: McpFetch;
  authProvider?: McpOAuthClientProvider;
} {
  const { requestInit, headers } = options;
  return {
    requestInit: { ...requestInit, headers: { ...toRecord(requestInit?.headers), ...headers } },
    fetch: options.fetch,
    authProvider: options.authProvider,
  };
}

/** `RequestInit['headers']` (the DOM's `HeadersInit`) as a plain record. */
export function toRecord(headers: RequestInit['headers'] | undefined): Record<string, string> {
  if (!headers) return {};
  return Object.fromEntries(new Headers(headers).entries());
}
