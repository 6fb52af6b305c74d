/**
 * `JsonlTraceExporter`: writes one JSON object per line to a sink the caller gives — each
 * ended span (`{"type":"span",…}`) and each trace start/end — so the kernel needs no `node:`
 * import. Use e.g. `new JsonlTraceExporter((line) => stream.write(line))`.
 */
import type { Span, Trace, TracingProcessor } from '@baton/kernel';

export type JsonlSink = ((line: string) => void) | { write(line: string): unknown };

export class JsonlTraceExporter implements TracingProcessor {
  private readonly write: (line: string) => void;
  constructor(sink: JsonlSink) {
    this.write = typeof sink === 'function' ? sink : (line) => sink.write(line);
  }
  onTraceStart(trace: Trace): void {
    this.write(`${JSON.stringify({ type: 'trace_start', ...trace })}\n`);
  }
  onTraceEnd(trace: Trace): void {
    this.write(`${JSON.stringify({ type: 'trace_end', ...trace })}\n`);
  }
  onSpanStart(): void {}
  onSpanEnd(span: Span): void {
    this.write(`${JSON.stringify({ type: 'span', ...span })}\n`);
  }
  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}
