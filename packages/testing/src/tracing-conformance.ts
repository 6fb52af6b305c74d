/**
 * `describeTracingConformance`: the vitest suite every `TracingProcessor` (v1) runs, so a
 * third-party tracing exporter can prove itself the same way Baton's own do.
 */
import type { Span, Trace, TracingProcessor } from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import {
  buildSyntheticTrace,
  outOfOrder,
  type Step,
  type SyntheticTrace,
} from './tracing-conformance-trace.js';

/** Builds a fresh processor for one test (it is shut down after the test). */
export type TracingProcessorFactory = () => TracingProcessor | Promise<TracingProcessor>;

/** What {@link TracingConformanceOptions.inspect} receives. */
export interface TracingConformanceContext {
  /** The processor that received the synthetic trace (flushed, not yet shut down). */
  processor: TracingProcessor;
  /** The synthetic trace as sent, ended. */
  trace: Trace;
  /** Every span of the trace as sent, ended, in start order; look them up by `data.kind`. */
  spans: Span[];
}

/** Options of {@link describeTracingConformance}. */
export interface TracingConformanceOptions {
  /**
   * Called after the full synthetic trace was sent and `forceFlush()` resolved: assert here what
   * the processor recorded or exported (span count, names, parent links, the error span…).
   */
  inspect?: (ctx: TracingConformanceContext) => void | Promise<void>;
  /** Bound in ms on each `forceFlush()` / `shutdown()` (default 10 000). */
  flushTimeoutMs?: number;
}

let strayId = 0;

/** Sends one step, asserting the call does not throw and does not mutate its argument. */
function send(p: TracingProcessor, t: SyntheticTrace, step: Step, clock: { now: number }): void {
  const span = t.spans.get(step.key)!;
  clock.now += 7;
  if (step.op === 'start') {
    span.startedAt = clock.now;
  } else {
    Object.assign(span, t.endPatches.get(step.key) ?? {});
    span.endedAt = clock.now;
  }
  const before = structuredClone(span);
  if (step.op === 'start')
    expect(() => p.onSpanStart(span), `onSpanStart(${step.key})`).not.toThrow();
  else expect(() => p.onSpanEnd(span), `onSpanEnd(${step.key})`).not.toThrow();
  expect(span, `the processor must not mutate span ${step.key}`).toEqual(before);
}

function startTrace(p: TracingProcessor, t: SyntheticTrace): { now: number } {
  const before = structuredClone(t.trace);
  expect(() => p.onTraceStart(t.trace)).not.toThrow();
  expect(t.trace, 'the processor must not mutate the trace').toEqual(before);
  return { now: t.trace.startedAt };
}

function endTrace(p: TracingProcessor, t: SyntheticTrace, clock: { now: number }): void {
  t.trace.endedAt = clock.now + 7;
  expect(() => p.onTraceEnd(t.trace)).not.toThrow();
}

function sendAll(p: TracingProcessor, t: SyntheticTrace, steps = t.inOrder): void {
  const clock = startTrace(p, t);
  for (const step of steps) send(p, t, step, clock);
  endTrace(p, t, clock);
}

async function bounded<T>(what: string, promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Declares a vitest `describe` block named `TracingProcessor conformance: <name>` that checks the
 * `TracingProcessor` v1 contract (packages/kernel/src/tracing/span-types.ts) on processors made
 * by `factory`: a synthetic trace with every span kind (agent > turn > generation, two concurrent
 * functions, a nested custom span, handoff, guardrail, mcp_list_tools, one span with `error`) is
 * accepted without throwing or mutating its input; spans ending after their parent, a span ended
 * twice, a trace ended twice, spans of an unknown trace and of an unknown parent are accepted;
 * two traces interleaved are accepted; `forceFlush()` and `shutdown()` resolve (within
 * `flushTimeoutMs`), `shutdown()` twice too, and calls after `shutdown()` do not throw.
 * With `inspect`, one more test hands the implementer what was sent, to assert what it recorded.
 *
 * Call it at the top level of a test file.
 */
export function describeTracingConformance(
  name: string,
  factory: TracingProcessorFactory,
  options: TracingConformanceOptions = {},
): void {
  const ms = options.flushTimeoutMs ?? 10_000;
  const withProcessor = async (fn: (p: TracingProcessor) => void | Promise<void>) => {
    const p = await factory();
    try {
      await fn(p);
    } finally {
      await bounded('shutdown()', Promise.resolve(p.shutdown()), ms);
    }
  };

  describe(`TracingProcessor conformance: ${name}`, () => {
    it('accepts a trace with every span kind, concurrent tools and an error span, without throwing or mutating it', () =>
      withProcessor(async (p) => {
        sendAll(p, buildSyntheticTrace());
        await bounded('forceFlush()', Promise.resolve(p.forceFlush()), ms);
      }));

    it('accepts spans that end after their parent and after siblings started later', () =>
      withProcessor(async (p) => {
        const t = buildSyntheticTrace();
        sendAll(p, t, outOfOrder(t.inOrder));
        await bounded('forceFlush()', Promise.resolve(p.forceFlush()), ms);
      }));

    it('ignores a span ended twice and a trace ended twice', () =>
      withProcessor((p) => {
        const t = buildSyntheticTrace();
        sendAll(p, t);
        const agent = t.spans.get('agent')!;
        expect(() => p.onSpanEnd(agent)).not.toThrow();
        expect(() => p.onTraceEnd(t.trace)).not.toThrow();
      }));

    it('accepts spans of an unknown trace, a span with an unknown parent, and ending an unknown trace', () =>
      withProcessor((p) => {
        const now = Date.now();
        const stray: Span = {
          spanId: `span_stray_${strayId++}`,
          traceId: 'trace_never_started',
          parentId: null,
          data: { kind: 'custom', name: 'stray' },
          startedAt: now,
        };
        expect(() => p.onSpanStart(stray)).not.toThrow();
        expect(() => p.onSpanEnd({ ...stray, endedAt: now + 1 })).not.toThrow();
        expect(() =>
          p.onTraceEnd({
            traceId: 'trace_never_started',
            name: 'x',
            startedAt: now,
            endedAt: now + 2,
          }),
        ).not.toThrow();
        const t = buildSyntheticTrace();
        const clock = startTrace(p, t);
        const orphan: Span = {
          spanId: `span_orphan_${strayId++}`,
          traceId: t.trace.traceId,
          parentId: 'span_missing_parent',
          data: { kind: 'turn', turn: 1, agentName: 'triage' },
          startedAt: clock.now + 1,
        };
        expect(() => p.onSpanStart(orphan)).not.toThrow();
        expect(() => p.onSpanEnd({ ...orphan, endedAt: clock.now + 2 })).not.toThrow();
        endTrace(p, t, clock);
      }));

    it('accepts two traces whose spans interleave', () =>
      withProcessor(async (p) => {
        const a = buildSyntheticTrace();
        const b = buildSyntheticTrace();
        const ca = startTrace(p, a);
        const cb = startTrace(p, b);
        for (let i = 0; i < a.inOrder.length; i++) {
          send(p, a, a.inOrder[i], ca);
          send(p, b, b.inOrder[i], cb);
        }
        endTrace(p, b, cb);
        endTrace(p, a, ca);
        await bounded('forceFlush()', Promise.resolve(p.forceFlush()), ms);
      }));

    it('resolves forceFlush() and shutdown(), accepts shutdown() twice and calls after shutdown()', async () => {
      const p = await factory();
      sendAll(p, buildSyntheticTrace());
      await expect(
        bounded('forceFlush()', Promise.resolve(p.forceFlush()), ms),
      ).resolves.toBeUndefined();
      await expect(
        bounded('shutdown()', Promise.resolve(p.shutdown()), ms),
      ).resolves.toBeUndefined();
      await expect(
        bounded('second shutdown()', Promise.resolve(p.shutdown()), ms),
      ).resolves.toBeUndefined();
      sendAll(p, buildSyntheticTrace());
      await expect(
        bounded('forceFlush() after shutdown()', Promise.resolve(p.forceFlush()), ms),
      ).resolves.toBeUndefined();
    });

    if (options.inspect) {
      const inspect = options.inspect;
      it('records the synthetic trace as the implementer expects (inspect)', () =>
        withProcessor(async (p) => {
          const t = buildSyntheticTrace();
          sendAll(p, t);
          await bounded('forceFlush()', Promise.resolve(p.forceFlush()), ms);
          const spans = [...t.spans.values()].sort((x, y) => x.startedAt - y.startedAt);
          await inspect({ processor: p, trace: t.trace, spans });
        }));
    }
  });
}
