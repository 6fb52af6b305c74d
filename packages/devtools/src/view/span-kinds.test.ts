import {
  Agent,
  inputGuardrail,
  run,
  tool,
  withCustomSpan,
  withMcpListToolsSpan,
} from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { record } from '../__tests__/desk.js';
import type { TraceEvent } from '../events.js';
import { spanDetail } from './span-detail.js';
import { SPAN_KINDS, spanRows } from './span-tree.js';
import { summarize, TraceStore } from './trace-store.js';

const traces = (events: TraceEvent[]) => {
  const store = new TraceStore();
  store.ingest(events);
  return [...store.traces.values()];
};

describe('every span kind has a label, a detail line and detail fields', () => {
  it('guardrail, mcp_list_tools and custom spans from real kernel calls', async () => {
    const fetchDocs = tool({
      name: 'fetch_docs',
      description: 'Fetch docs',
      parameters: z.object({ topic: z.string() }),
      execute: async ({ topic }) => {
        await withMcpListToolsSpan('docs-server', async () => ['search', 'read']);
        return withCustomSpan('render', async () => `docs on ${topic}`, { pages: 3 });
      },
    });
    const clean = inputGuardrail({
      name: 'no_secrets',
      execute: () => ({ tripwireTriggered: false, outputInfo: 'clean' }),
    });
    const agent = new Agent({
      name: 'Docs',
      tools: [fetchDocs],
      inputGuardrails: [clean],
      model: new ScriptedModel([[fc('fetch_docs', { topic: 'tracing' }, 'd1')], [msg('Here.')]]),
    });
    const r = await record(async () => [await run(agent, 'how does tracing work?')]);
    const [t] = traces(r.events);
    const rows = spanRows(t);
    // The first row of each kind.
    const byKind = Object.fromEntries([...rows].reverse().map((x) => [x.kind, x]));
    expect(Object.keys(byKind).sort()).toEqual(
      ['agent', 'custom', 'function', 'generation', 'guardrail', 'mcp_list_tools', 'turn'].sort(),
    );
    expect(SPAN_KINDS).toEqual(expect.arrayContaining(Object.keys(byKind)));
    expect(byKind.guardrail).toMatchObject({ label: 'guardrail no_secrets', detail: 'passed' });
    expect(byKind.mcp_list_tools).toMatchObject({
      label: 'mcp_list_tools docs-server',
      detail: '2 tools',
    });
    expect(byKind.custom).toMatchObject({ label: 'custom render', detail: '' });
    // Both nest under the tool's function span.
    expect(byKind.custom.span.parentId).toBe(byKind.function.id);
    expect(byKind.mcp_list_tools.span.parentId).toBe(byKind.function.id);
    const fields = (kind: string) =>
      Object.fromEntries(spanDetail(byKind[kind].span).map((f) => [f.label, f.value]));
    expect(fields('mcp_list_tools')).toEqual({
      Server: { type: 'text', text: 'docs-server' },
      Tools: { type: 'text', text: 'search, read' },
    });
    expect(fields('custom')).toEqual({
      Name: { type: 'text', text: 'render' },
      Data: { type: 'json', value: { pages: 3 } },
    });
    expect(fields('guardrail')).toEqual({
      Guardrail: { type: 'text', text: 'no_secrets' },
      Tripwire: { type: 'text', text: 'not triggered' },
    });
    expect(fields('turn')).toEqual({
      Turn: { type: 'text', text: '1' },
      Agent: { type: 'text', text: 'Docs' },
    });
    expect(fields('agent')).toMatchObject({
      Tools: { type: 'text', text: 'fetch_docs' },
      Handoffs: { type: 'text', text: 'none' },
    });
  });

  it('a triggered guardrail: tripwire shown, the trace an error', async () => {
    const block = inputGuardrail({
      name: 'block_all',
      runInParallel: false,
      execute: () => ({ tripwireTriggered: true, outputInfo: 'no' }),
    });
    const agent = new Agent({
      name: 'Guarded',
      inputGuardrails: [block],
      model: new ScriptedModel([[msg('never')]]),
    });
    const r = await record(async () => {
      await run(agent, 'x').catch(() => undefined);
      return [];
    });
    const [t] = traces(r.events);
    const g = spanRows(t).find((x) => x.kind === 'guardrail')!;
    expect(g.detail).toBe('tripwire triggered');
    expect(summarize(t).status).toBe('error');
    expect(summarize(t).tokens.total).toBe(0);
  });

  it('an unknown span kind (a newer kernel) still gets a row and its data', () => {
    const [t] = traces([
      {
        type: 'span',
        traceId: 't',
        spanId: 's',
        parentId: null,
        data: { kind: 'speech', name: 'tts', voice: 'alloy' } as any,
        startedAt: 1,
        endedAt: 5,
      },
    ]);
    const [row] = spanRows(t);
    expect(row).toMatchObject({ kind: 'speech', label: 'speech tts', durationMs: 4 });
    expect(spanDetail(row.span)).toEqual([
      {
        label: 'Data',
        value: { type: 'json', value: { kind: 'speech', name: 'tts', voice: 'alloy' } },
      },
    ]);
  });
});
