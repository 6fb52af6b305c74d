import { currentSpanScope, withSpanScope } from './span-context.js';
import type { CustomSpanData, McpListToolsSpanData, Span } from './span-types.js';

/**
 * Runs `fn` inside a `custom` span named `name`, child of the current span (e.g. the function
 * span of the tool calling it). Outside a traced run, or with tracing off, it just runs `fn`.
 * The span records an error (message only) when `fn` throws; the error is rethrown.
 */
export async function withCustomSpan<R>(
  name: string,
  fn: (span: Span<CustomSpanData> | undefined) => R | Promise<R>,
  data?: Record<string, unknown>,
): Promise<R> {
  const scope = currentSpanScope();
  if (!scope) return fn(undefined);
  const span = scope.tracer.startSpan<CustomSpanData>({ kind: 'custom', name, data }, scope.span);
  try {
    const result = await withSpanScope({ tracer: scope.tracer, span }, () => fn(span));
    scope.tracer.endSpan(span);
    return result;
  } catch (error) {
    scope.tracer.endSpan(span, { message: error instanceof Error ? error.message : String(error) });
    throw error;
  }
}

/**
 * Runs a tool listing `fn` of MCP server `server` inside an `mcp_list_tools` span (child of the
 * current span) and records the tool names it returns. Without tracing it just runs `fn`.
 */
export async function withMcpListToolsSpan(
  server: string,
  fn: () => Promise<string[]>,
): Promise<string[]> {
  const scope = currentSpanScope();
  if (!scope) return fn();
  const span = scope.tracer.startSpan<McpListToolsSpanData>(
    { kind: 'mcp_list_tools', server },
    scope.span,
  );
  try {
    const names = await fn();
    span.data.result = names;
    scope.tracer.endSpan(span);
    return names;
  } catch (error) {
    scope.tracer.endSpan(span, { message: error instanceof Error ? error.message : String(error) });
    throw error;
  }
}

/** The span the caller runs in (a tool's function span, a custom span), if traced. */
export function getCurrentSpan(): Span | undefined {
  return currentSpanScope()?.span;
}
