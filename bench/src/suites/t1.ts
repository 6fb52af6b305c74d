/**
 * T1, worker side: S2 (10 tool turns + answer) with tracing on, against the same S2 with tracing
 * off, in each runtime's process. Added µs per span = (on − off) ÷ spans one run makes.
 *
 * - `noop`: tracing on, exported nowhere. Baton: one registered `TracingProcessor` whose
 *   methods do nothing (the kernel's own span path). @openai/agents: its default
 *   `BatchTraceProcessor` with an exporter that drops every batch.
 * - `otel`: into the OpenTelemetry SDK (`BasicTracerProvider` + `SimpleSpanProcessor` +
 *   `InMemorySpanExporter`, emptied after every run). Baton: `OtelTracingProcessor`. AI SDK:
 *   `experimental_telemetry` with `@ai-sdk/otel`'s `OpenTelemetry` integration on a tracer of
 *   the same provider. Floor (Baton's worker): the OTel SDK creating and ending the very spans
 *   Baton's run produced (same names, kinds, parents and final attributes), nothing else.
 */
import type { Adapter } from '../types.js';

/** What the parent times. */
export interface T1Ops {
  ops: Record<string, () => unknown>;
  paired?: Record<string, [() => unknown, () => unknown]>;
  facts: Record<string, number>;
  /** CPU time: waits for a busy CPU would swamp µs per span (see `timeBatch`). */
  clock?: 'cpu';
}

interface OtelKit {
  exporter: { getFinishedSpans(): RecordedSpan[]; reset(): void };
  provider: { getTracer(name: string): unknown };
}

interface RecordedSpan {
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  spanContext(): { spanId: string };
  parentSpanContext?: { spanId: string };
  parentSpanId?: string;
}

async function otelKit(): Promise<OtelKit> {
  const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import(
    '@opentelemetry/sdk-trace-base'
  );
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter: exporter as never, provider: provider as never };
}

/** A run, then the exporter emptied (so memory does not grow across samples). */
const andReset = (run: () => Promise<unknown>, kit: OtelKit) => async () => {
  const out = await run();
  kit.exporter.reset();
  return out;
};

async function baton(adapter: Adapter, mode: string): Promise<T1Ops> {
  const kernel = await import('@baton/kernel');
  const traced = adapter.s2Traced();
  if (mode === 'noop') {
    let spans = 0;
    const counting = {
      onTraceStart() {},
      onTraceEnd() {},
      onSpanStart() {},
      onSpanEnd() {
        spans++;
      },
      forceFlush: async () => {},
      shutdown: async () => {},
    };
    kernel.setTraceProcessors([counting]);
    await traced();
    const perRun = spans;
    const noop = { ...counting, onSpanEnd() {} };
    kernel.setTraceProcessors([noop]);
    return { ops: { off: adapter.s2, on: traced }, facts: { spans: perRun } };
  }
  const kit = await otelKit();
  const { OtelTracingProcessor } = await import('@baton/tracing-otel');
  kernel.setTraceProcessors([new OtelTracingProcessor({ tracerProvider: kit.provider as never })]);
  await traced();
  const recorded = kit.exporter.getFinishedSpans();
  kit.exporter.reset();
  return {
    ops: { off: adapter.s2, on: andReset(traced, kit), floor: await replay(recorded, kit) },
    facts: { spans: recorded.length },
  };
}

/**
 * The floor: the OTel SDK alone creating and ending `recorded` (in start order: parents before
 * children, which `getFinishedSpans` returns in end order) with their names, kinds, parents and
 * final attributes, then the exporter emptied.
 */
async function replay(recorded: RecordedSpan[], kit: OtelKit): Promise<() => void> {
  const api = await import('@opentelemetry/api');
  const tracer = kit.provider.getTracer('bench-floor') as import('@opentelemetry/api').Tracer;
  const idOf = (s: RecordedSpan) => s.spanContext().spanId;
  const parentOf = (s: RecordedSpan) => s.parentSpanContext?.spanId ?? s.parentSpanId;
  const byId = new Map(recorded.map((s) => [idOf(s), s]));
  const order: RecordedSpan[] = [];
  const seen = new Set<string>();
  const visit = (s: RecordedSpan) => {
    if (seen.has(idOf(s))) return;
    const parent = parentOf(s);
    if (parent && byId.has(parent)) visit(byId.get(parent)!);
    seen.add(idOf(s));
    order.push(s);
  };
  for (const s of recorded) visit(s);
  const plan = order.map((s) => ({
    name: s.name,
    kind: s.kind,
    attributes: { ...s.attributes } as import('@opentelemetry/api').Attributes,
    parent: parentOf(s) && byId.has(parentOf(s)!) ? order.indexOf(byId.get(parentOf(s)!)!) : -1,
    endIndex: recorded.indexOf(s),
  }));
  const endOrder = [...plan.keys()].sort((a, b) => plan[a].endIndex - plan[b].endIndex);
  return () => {
    const live: import('@opentelemetry/api').Span[] = [];
    const root = api.context.active();
    for (const p of plan) {
      const ctx = p.parent < 0 ? root : api.trace.setSpan(root, live[p.parent]);
      live.push(tracer.startSpan(p.name, { kind: p.kind, attributes: p.attributes }, ctx));
    }
    for (const i of endOrder) live[i].end();
    if (kit.exporter.getFinishedSpans().length !== plan.length)
      throw new Error('T1 floor: the OTel SDK did not finish every replayed span');
    kit.exporter.reset();
  };
}

async function openaiAgents(adapter: Adapter, mode: string): Promise<T1Ops | undefined> {
  if (mode !== 'noop') return undefined;
  const agents = await import('@openai/agents');
  let spans = 0;
  const dropping = { export: async () => {} };
  const counting = {
    start() {},
    async onTraceStart() {},
    async onTraceEnd() {},
    async onSpanStart() {},
    async onSpanEnd() {
      spans++;
    },
    async shutdown() {},
    async forceFlush() {},
  };
  agents.setTraceProcessors([counting as never]);
  const traced = adapter.s2Traced();
  await traced();
  const perRun = spans;
  agents.setTraceProcessors([new agents.BatchTraceProcessor(dropping)]);
  return { ops: { off: adapter.s2, on: traced }, facts: { spans: perRun } };
}

async function aiSdk(adapter: Adapter, mode: string): Promise<T1Ops | undefined> {
  if (mode !== 'otel') return undefined;
  const kit = await otelKit();
  const { OpenTelemetry } = await import('@ai-sdk/otel');
  const integration = new OpenTelemetry({ tracer: kit.provider.getTracer('ai') as never });
  const traced = adapter.s2Traced([integration]);
  await traced();
  const spans = kit.exporter.getFinishedSpans().length;
  kit.exporter.reset();
  return { ops: { off: adapter.s2, on: andReset(traced, kit) }, facts: { spans } };
}

/** T1 operations of one runtime for `mode` (`noop` / `otel`); `undefined`: no such path. */
export async function prepareT1(adapter: Adapter, mode: string): Promise<T1Ops | undefined> {
  const ops =
    adapter.id === 'baton'
      ? await baton(adapter, mode)
      : adapter.id === 'openai-agents'
        ? await openaiAgents(adapter, mode)
        : await aiSdk(adapter, mode);
  if (ops && !(ops.facts.spans > 0))
    throw new Error(`T1 ${adapter.label} ${mode}: the traced run made no spans`);
  if (ops) {
    // Both runs must still do S2's work (checked like every scenario).
    const [off, on] = [
      await adapter.s2(),
      await (ops.ops.on as () => Promise<{ output: string }>)(),
    ];
    if (off.output !== on.output)
      throw new Error(
        `T1 ${adapter.label}: traced S2 answered ${on.output}, untraced ${off.output}`,
      );
  }
  if (ops) {
    ops.clock = 'cpu';
    // Sampled call by call: the traced run's µs above the untraced one.
    ops.paired = { added: [ops.ops.off, ops.ops.on] };
    const { off: _off, on: _on, ...rest } = ops.ops;
    ops.ops = rest;
  }
  return ops;
}
