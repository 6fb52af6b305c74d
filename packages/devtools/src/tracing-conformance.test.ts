/**
 * `DevtoolsTraceProcessor` through the tracing conformance suite: in-process (a sink, as
 * `startDevtools()` wires it) and posting batches to a viewer's URL (a local HTTP server standing
 * in for `baton-devtools`). What the viewer shows is read back by span id (an ended span replaces
 * its start), and `JsonlTraceExporter` lines the same way.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Span, TracingProcessor } from '@baton/kernel';
import { describeTracingConformance, type ExportedSpan, exportedName } from '@baton/testing/vitest';
import { afterAll, beforeAll } from 'vitest';
import type { TraceEvent } from './events.js';
import { JsonlTraceExporter } from './jsonl-trace-exporter.js';
import { DevtoolsTraceProcessor } from './processor.js';

/** The ended spans the viewer would show, one per span id, in Baton terms. */
function shown(events: readonly TraceEvent[]): ExportedSpan[] {
  const spans = new Map<string, Span>();
  for (const e of events) if (e.type === 'span') spans.set(e.spanId, e);
  return [...spans.values()].map((s) => ({
    id: s.spanId,
    parentId: s.parentId,
    traceId: s.traceId,
    kind: s.data.kind,
    name: exportedName(s),
    error: s.error?.message,
    startedAt: s.startedAt,
    endedAt: s.endedAt,
  }));
}

const received = new WeakMap<TracingProcessor, TraceEvent[]>();

describeTracingConformance(
  'DevtoolsTraceProcessor (in-process sink)',
  () => {
    const events: TraceEvent[] = [];
    const p = new DevtoolsTraceProcessor({ sink: { publish: (batch) => events.push(...batch) } });
    received.set(p, events);
    return p;
  },
  { exported: (p) => shown(received.get(p)!) },
);

// A stand-in viewer: records every posted batch.
let viewer: Server;
let url = '';
let posted: TraceEvent[] = [];
beforeAll(async () => {
  viewer = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      posted.push(...(JSON.parse(body) as TraceEvent[]));
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((r) => viewer.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(viewer.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => viewer.close(() => r())));

describeTracingConformance(
  'DevtoolsTraceProcessor (posting to a viewer URL, batched)',
  () => {
    posted = []; // tests run one at a time: the readback is everything posted since
    return new DevtoolsTraceProcessor({ url, batchDelayMs: 20 });
  },
  { exported: () => shown(posted) },
);

const lines = new WeakMap<TracingProcessor, string[]>();
describeTracingConformance(
  'JsonlTraceExporter',
  () => {
    const out: string[] = [];
    const p = new JsonlTraceExporter((line) => void out.push(line));
    lines.set(p, out);
    return p;
  },
  { exported: (p) => shown(lines.get(p)!.map((l) => JSON.parse(l) as TraceEvent)) },
);
