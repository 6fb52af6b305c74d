/**
 * The "current span" for user code (`withCustomSpan`, `getCurrentSpan`, nested runs in a tool),
 * in the runtime's AsyncLocalStorage when it has one (found through `process.getBuiltinModule`,
 * no `node:` import), so concurrent tools each see their own span; else only explicit parents.
 */
import type { CustomSpanData, McpListToolsSpanData, Span } from './span-types.js';
import type { Tracer } from './tracer.js';

export interface SpanScope {
  tracer: Tracer;
  span: Span;
}

interface AlsLike<T> {
  getStore(): T | undefined;
  run<R>(store: T, fn: () => R): R;
}

function createStorage(): AlsLike<SpanScope> | undefined {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => any } }).process;
    const mod = proc?.getBuiltinModule?.('node:async_hooks');
    if (mod?.AsyncLocalStorage) return new mod.AsyncLocalStorage();
  } catch {
    /* no async context on this runtime */
  }
  return undefined;
}

const storage = createStorage();

/** The span scope active in this async context, if any. */
export function currentSpanScope(): SpanScope | undefined {
  return storage?.getStore();
}

/** Runs `fn` with `scope` as the current span scope. */
export function withSpanScope<R>(scope: SpanScope | undefined, fn: () => R): R {
  if (!storage || !scope) return fn();
  return storage.run(scope, fn);
}

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
