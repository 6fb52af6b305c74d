/**
 * `ConsoleTraceProcessor`: prints each finished trace as an indented span tree with timings,
 * for demos and debugging. Output goes through `write` (default `console.log`).
 */
import type { Span, Trace, TracingProcessor } from '@baton/kernel';

function label(span: Span): string {
  const d = span.data;
  switch (d.kind) {
    case 'agent':
      return `agent ${d.name}`;
    case 'turn':
      return `turn ${d.turn} (${d.agentName})`;
    case 'generation':
      return `generation ${d.model ?? ''}${d.usage ? ` in=${d.usage.inputTokens ?? 0} out=${d.usage.outputTokens ?? 0}` : ''}`;
    case 'function':
      return `function ${d.name} [${d.callId}]`;
    case 'handoff':
      return `handoff ${d.from} → ${d.to ?? '?'}`;
    case 'guardrail':
      return `guardrail ${d.name}${d.triggered ? ' TRIGGERED' : ''}`;
    case 'mcp_list_tools':
      return `mcp_list_tools ${d.server}`;
    case 'custom':
      return `custom ${d.name}`;
    case 'realtime_session':
      return `realtime_session ${d.agentName}`;
    default:
      return d.kind === 'speech' || d.kind === 'transcription'
        ? `${d.kind} ${d.model ?? ''}`
        : d.kind;
  }
}

export class ConsoleTraceProcessor implements TracingProcessor {
  private readonly spans = new Map<string, Span[]>();
  private readonly write: (line: string) => void;

  constructor(options: { write?: (line: string) => void } = {}) {
    this.write = options.write ?? ((line) => console.log(line));
  }

  onTraceStart(trace: Trace): void {
    this.spans.set(trace.traceId, []);
  }

  onSpanStart(): void {}

  onSpanEnd(span: Span): void {
    this.spans.get(span.traceId)?.push(span);
  }

  onTraceEnd(trace: Trace): void {
    const spans = this.spans.get(trace.traceId) ?? [];
    this.spans.delete(trace.traceId);
    const children = new Map<string | null, Span[]>();
    for (const s of spans) {
      const list = children.get(s.parentId) ?? [];
      list.push(s);
      children.set(s.parentId, list);
    }
    const ids = new Set(spans.map((s) => s.spanId));
    const lines = [
      `trace ${trace.name} (${trace.traceId}) ${(trace.endedAt ?? Date.now()) - trace.startedAt} ms`,
    ];
    const walk = (parent: string | null, depth: number) => {
      const list = (children.get(parent) ?? []).sort((a, b) => a.startedAt - b.startedAt);
      for (const s of list) {
        const ms = (s.endedAt ?? s.startedAt) - s.startedAt;
        lines.push(
          `${'  '.repeat(depth)}└─ ${label(s)} ${ms} ms${s.error ? ` ✗ ${s.error.message}` : ''}`,
        );
        walk(s.spanId, depth + 1);
      }
    };
    walk(null, 1);
    // Spans whose parent lives in another trace segment (should not happen) are still shown.
    for (const s of spans)
      if (s.parentId !== null && !ids.has(s.parentId)) lines.push(`  └─ (orphan) ${label(s)}`);
    this.write(lines.join('\n'));
  }

  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {
    this.spans.clear();
  }
}
