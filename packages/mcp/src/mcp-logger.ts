/**
 * Where `@baton/mcp` reports things that are not errors of the current call: a server dropped
 * at connect time, a failed close, a server's stderr tail. Inject your own to route them into
 * your logging; the default writes warnings to `console.warn` and ignores debug messages.
 */
export interface McpLogger {
  /** Something went wrong but the run continues (a server was dropped, a close failed). */
  warn(message: string, details?: Record<string, unknown>): void;
  /** Diagnostics (transport errors, list_changed notifications). Optional. */
  debug?(message: string, details?: Record<string, unknown>): void;
}

/** The default logger: `console.warn` with a `[baton/mcp]` prefix; no debug output. */
export const consoleMcpLogger: McpLogger = {
  warn(message) {
    console.warn(`[baton/mcp] ${message}`);
  },
};
