/**
 * The "current span" for user code (`withCustomSpan`, nested runs started inside a tool). Uses
 * the runtime's AsyncLocalStorage when it has one (Node, Bun, Deno, Workers with nodejs_compat,
 * found through `process.getBuiltinModule` — no static `node:` import), so concurrent tools each
 * see their own span. Without it, only the loop's explicit parent links are kept.
 */
import type { Span } from './span-types.js';
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
