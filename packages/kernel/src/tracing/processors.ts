/**
 * Global tracing processors. Nothing is registered by default (no-op tracing). Processors are
 * called synchronously and must not block; anything they throw is caught and reported once per
 * processor through the error handler (default: `console.error`).
 */
import type { TracingProcessor } from './span-types.js';

let processors: TracingProcessor[] = [];
let errorHandler: (error: unknown, processor: TracingProcessor) => void = (error) => {
  console.error(
    '[baton] a tracing processor threw; further errors of this processor are not reported:',
    error,
  );
};
const reported = new WeakSet<TracingProcessor>();

/** Adds a processor to every later run. */
export function addTraceProcessor(processor: TracingProcessor): void {
  processors = [...processors, processor];
}

/** Replaces all processors (an empty list turns tracing off globally). */
export function setTraceProcessors(list: TracingProcessor[]): void {
  processors = [...list];
}

/** The registered processors. */
export function getTraceProcessors(): readonly TracingProcessor[] {
  return processors;
}

/** Replaces the handler that receives the first error of each failing processor. */
export function setTracingErrorHandler(
  handler: (error: unknown, processor: TracingProcessor) => void,
): void {
  errorHandler = handler;
}

/** Calls `fn` for each processor, isolating failures. */
export function notifyProcessors(
  list: readonly TracingProcessor[],
  fn: (p: TracingProcessor) => void,
): void {
  for (const p of list) {
    try {
      const result = fn(p) as unknown;
      // An async processor method returns a promise: its rejection is reported, never thrown.
      if (result && typeof (result as Promise<unknown>).then === 'function') {
        (result as Promise<unknown>).then(undefined, (error) => report(error, p));
      }
    } catch (error) {
      report(error, p);
    }
  }
}

function report(error: unknown, p: TracingProcessor): void {
  if (reported.has(p)) return;
  reported.add(p);
  try {
    errorHandler(error, p);
  } catch {
    /* the handler itself must not break the run */
  }
}

/** Flushes every registered processor (errors are reported, not thrown). */
export async function flushTraces(): Promise<void> {
  await Promise.all(
    processors.map((p) =>
      Promise.resolve()
        .then(() => p.forceFlush())
        .catch((e) => report(e, p)),
    ),
  );
}
