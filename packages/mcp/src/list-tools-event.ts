/**
 * Listing events: every tool listing that reaches the server (cache hits do not) is reported
 * through the `onListTools` server option. Traced runs also get an `mcp_list_tools` span from
 * the kernel (`withMcpListToolsSpan` in `MCPServer.listTools`); calls get their `function`
 * span from the kernel loop like any function tool.
 */
import type { McpListToolsSpanData } from '@baton/kernel';

/** One `tools/list` round trip (all pages), successful or not. */
export interface McpListToolsEvent {
  serverName: string;
  /** Tool names the server listed (absent when the listing failed). */
  toolNames?: string[];
  /** Wall-clock duration of the listing in milliseconds. */
  durationMs: number;
  /** The error message when the listing failed. */
  error?: string;
  /** The same information as a kernel `mcp_list_tools` span payload. */
  spanData: McpListToolsSpanData;
}

/** Receives {@link McpListToolsEvent}s; must not throw (errors are caught and ignored). */
export type OnListTools = (event: McpListToolsEvent) => void;

/** Builds the event and hands it to `hook`, never throwing into the caller. */
export function reportListTools(
  hook: OnListTools | undefined,
  serverName: string,
  startedAt: number,
  outcome: { toolNames: string[] } | { error: unknown },
): void {
  if (!hook) return;
  const durationMs = Date.now() - startedAt;
  const event: McpListToolsEvent =
    'toolNames' in outcome
      ? {
          serverName,
          toolNames: outcome.toolNames,
          durationMs,
          spanData: { kind: 'mcp_list_tools', server: serverName, result: outcome.toolNames },
        }
      : {
          serverName,
          durationMs,
          error: outcome.error instanceof Error ? outcome.error.message : String(outcome.error),
          spanData: { kind: 'mcp_list_tools', server: serverName },
        };
  try {
    hook(event);
  } catch {
    /* a tracing hook never breaks a listing */
  }
}
