import { currentSpanScope, withSpanScope } from './span-context.js';
import type { CustomSpanData, McpListToolsSpanData, Span } from './span-types.js';

/** Runs `fn` in a new child span of the current one (just runs it outside a traced run). */
async function inChildSpan<D extends CustomSpanData | McpListToolsSpanData, R>(
  data: D,
  fn: (span: Span<D> | undefined) => R | Promise<R>,
): Promise<R> {
  const scope = currentSpanScope();
  if (!scope) return fn(undefined);
  const span = scope.tracer.startSpan<D>(data, scope.span);
  try {
    const result = await withSpanScope({ tracer: scope.tracer, span }, () => fn(span));
    scope.tracer.endSpan(span);
    return result;
  } catch (error) {
    scope.tracer.failSpan(span, error);
    throw error;
  }
}

/**
 * Runs `fn` inside a `custom` span named `name`, child of the current span (e.g. the function
 * span of the tool calling it). Outside a traced run, or with tracing off, it just runs `fn`.
 * The span records an error (message only) when `fn` throws; the error is rethrown.
 */
export function withCustomSpan<R>(
  name: string,
  fn: (span: Span<CustomSpanData> | undefined) => R | Promise<R>,
  data?: Record<string, unknown>,
): Promise<R> {
  return inChildSpan<CustomSpanData, R>({ kind: 'custom', name, data }, fn);
}

/**
 * Runs a tool listing `fn` of MCP server `server` inside an `mcp_list_tools` span (child of the
 * current span) and records the tool names it returns. Without tracing it just runs `fn`.
 */
export function withMcpListToolsSpan(
  server: string,
  fn: () => Promise<string[]>,
): Promise<string[]> {
  return inChildSpan<McpListToolsSpanData, string[]>(
    { kind: 'mcp_list_tools', server },
    async (span) => {
      const names = await fn();
      if (span) span.data.result = names;
      return names;
    },
  );
}

/** The span the caller runs in (a tool's function span, a custom span), if traced. */
export function getCurrentSpan(): Span | undefined {
  return currentSpanScope()?.span;
}
