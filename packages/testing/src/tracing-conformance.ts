/**
 * `describeTracingConformance`: the vitest suite every `TracingProcessor` (v1) runs, so a
 * third-party tracing exporter can prove itself the same way Baton's own do.
 */
import {
  Agent,
  getTraceProcessors,
  run,
  type Span,
  setTraceProcessors,
  type Trace,
  type TracingProcessor,
  tool,
} from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import { fc, msg } from './builders.js';
import { RecordingTraceProcessor } from './recording-trace-processor.js';
import { ScriptedModel } from './scripted-model.js';
import { type ExportedSpan, expectExportedTrace } from './tracing-conformance-exported.js';
import {
  buildSyntheticTrace,
  outOfOrder,
  type Step,
  type SyntheticTrace,
} from './tracing-conformance-trace.js';

export type { ExportedSpan } from './tracing-conformance-exported.js';

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
   * What the processor exported so far (after `forceFlush()` resolved), in Baton terms: read it
   * back from where the processor writes (an in-memory exporter, a test server, a file). The
   * suite checks it is the trace that was sent — every span once, under its parent, with its
   * error, end-time data and times. Required: a processor that exports nothing must not pass.
   */
  exported: (processor: TracingProcessor) => ExportedSpan[] | Promise<ExportedSpan[]>;
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
 * by `factory`, reading back what they exported through `options.exported`: a synthetic trace
 * with every span kind (agent > turn > generation, two concurrent functions, a nested custom span,
 * handoff, guardrail, mcp_list_tools, one span with `error`, data filled in at span end) is
 * exported as sent — every span once, under its parent, with its error and times — without
 * throwing or mutating its input, also when spans end after their parent; a span ended twice is
 * exported once; two interleaved traces are exported apart; the spans of a real kernel run are
 * exported as the kernel sent them; spans of an unknown trace and parent are accepted;
 * `forceFlush()` and `shutdown()` resolve (within `flushTimeoutMs`), `shutdown()` twice too, and
 * calls after `shutdown()` do not throw. With `inspect`, one more test hands the implementer what
 * was sent, to assert what it recorded (attributes, names).
 *
 * Call it at the top level of a test file.
 */
export function describeTracingConformance(
  name: string,
  factory: TracingProcessorFactory,
  options: TracingConformanceOptions,
): void {
  const ms = options.flushTimeoutMs ?? 10_000;
  const flushed = async (p: TracingProcessor) => {
    await bounded('forceFlush()', Promise.resolve(p.forceFlush()), ms);
    return options.exported(p);
  };
  const sentSpans = (t: SyntheticTrace) => [...t.spans.values()];
  const withProcessor = async (fn: (p: TracingProcessor) => void | Promise<void>) => {
    const p = await factory();
    try {
      await fn(p);
    } finally {
      await bounded('shutdown()', Promise.resolve(p.shutdown()), ms);
    }
  };

  describe(`TracingProcessor conformance: ${name}`, () => {
    it('exports a trace with every span kind, concurrent tools and an error span as sent, without mutating it', () =>
      withProcessor(async (p) => {
        const t = buildSyntheticTrace();
        sendAll(p, t);
        expectExportedTrace(await flushed(p), sentSpans(t));
      }));

    it('exports spans that end after their parent and after siblings started later', () =>
      withProcessor(async (p) => {
        const t = buildSyntheticTrace();
        sendAll(p, t, outOfOrder(t.inOrder));
        expectExportedTrace(await flushed(p), sentSpans(t));
      }));

    it('exports a span ended twice once, and ignores a trace ended twice', () =>
      withProcessor(async (p) => {
        const t = buildSyntheticTrace();
        const clock = startTrace(p, t);
        for (const step of t.inOrder) {
          send(p, t, step, clock);
          if (step.op === 'end' && step.key === 'fn_weather')
            expect(() => p.onSpanEnd(t.spans.get('fn_weather')!)).not.toThrow();
        }
        endTrace(p, t, clock);
        expect(() => p.onSpanEnd(t.spans.get('agent')!)).not.toThrow();
        expect(() => p.onTraceEnd(t.trace)).not.toThrow();
        expectExportedTrace(await flushed(p), sentSpans(t));
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

    it('exports two traces whose spans interleave, each on its own', () =>
      withProcessor(async (p) => {
        const a = buildSyntheticTrace('triage');
        const b = buildSyntheticTrace('triage_b');
        const ca = startTrace(p, a);
        const cb = startTrace(p, b);
        for (let i = 0; i < a.inOrder.length; i++) {
          send(p, a, a.inOrder[i], ca);
          send(p, b, b.inOrder[i], cb);
        }
        endTrace(p, b, cb);
        endTrace(p, a, ca);
        const exported = await flushed(p);
        const traceOf = (agent: string) =>
          exported.find((e) => e.kind === 'agent' && e.name === agent)?.traceId;
        expect(traceOf('triage')).toBeDefined();
        expect(traceOf('triage')).not.toBe(traceOf('triage_b'));
        for (const [t, agent] of [
          [a, 'triage'],
          [b, 'triage_b'],
        ] as const)
          expectExportedTrace(
            exported.filter((e) => e.traceId === traceOf(agent)),
            sentSpans(t),
          );
      }));

    it('exports the spans of a real run (agent > turns > generations, tools, a failed tool)', () =>
      withProcessor(async (p) => {
        const recorder = new RecordingTraceProcessor();
        const before = getTraceProcessors();
        setTraceProcessors([p, recorder]);
        try {
          const model = new ScriptedModel([
            [fc('lookup_order', {}, 'call_a'), fc('broken_tool', {}, 'call_b')],
            [msg('Done.')],
          ]);
          const failing = () => {
            throw new Error('conformance: the tool failed');
          };
          const agent = new Agent({
            name: 'Conformance desk',
            model,
            tools: [
              tool({ name: 'lookup_order', description: '', execute: () => 'found' }),
              tool({ name: 'broken_tool', description: '', execute: failing }),
            ],
          });
          await run(agent, 'Look up order 42.');
        } finally {
          setTraceProcessors([...before]);
        }
        expect(recorder.ended.map((s) => s.data.kind)).toContain('function');
        expectExportedTrace(await flushed(p), recorder.ended);
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
          await flushed(p);
          const spans = [...t.spans.values()].sort((x, y) => x.startedAt - y.startedAt);
          await inspect({ processor: p, trace: t.trace, spans });
        }));
    }
  });
}
