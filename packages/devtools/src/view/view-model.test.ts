import { Agent, REDACTED_TOOL_ERROR as KERNEL_REDACTED, run } from '@baton/kernel';
import { fc, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { buildDesk, deskRun, record } from '../__tests__/desk.js';
import { parseTraceJsonl, type TraceEvent } from '../events.js';
import { agentGraph, pathCaption } from './agent-graph.js';
import { layoutGraph } from './graph-layout.js';
import { REDACTED_TOOL_ERROR, spanDetail, toTranscript } from './span-detail.js';
import { filterRows, kindCounts, spanRows, timeAxis } from './span-tree.js';
import { listTraces, summarize, TraceStore } from './trace-store.js';

const storeOf = (events: Iterable<TraceEvent>) => {
  const store = new TraceStore();
  store.ingest(events);
  return store;
};
const only = (store: TraceStore) => {
  expect(store.traces.size).toBe(1);
  return [...store.traces.values()][0];
};
/** Rows in RecordingTraceProcessor.tree()'s notation. */
const treeOf = (rows: ReturnType<typeof spanRows>) =>
  rows.map((r) => {
    const d = r.span.data as any;
    const name =
      d.kind === 'turn'
        ? `turn:${d.agentName}`
        : d.kind === 'handoff'
          ? `handoff:${d.from}->${d.to}`
          : `${d.kind}:${d.name ?? d.model ?? ''}`;
    return `${'  '.repeat(r.depth)}${name}`;
  });

describe('span → view model', () => {
  for (const stream of [false, true]) {
    it(`the waterfall rows are the kernel's nesting, live and after the JSONL round trip (stream: ${stream})`, async () => {
      const r = await deskRun({ stream });
      const live = only(storeOf(r.events));
      const fromFile = only(storeOf(parseTraceJsonl(r.jsonl.join('')).events));
      expect(treeOf(spanRows(live))).toEqual(r.tree);
      expect(treeOf(spanRows(fromFile))).toEqual(r.tree);
      const a = summarize(live);
      const b = summarize(fromFile);
      expect(b).toEqual(a);
      expect(a).toMatchObject({
        name: 'support-desk',
        groupId: 'conv-1',
        status: 'completed',
        segments: 2,
        errorCount: 0,
        agents: ['Triage Agent', 'Refund Agent', 'Policy Agent'],
      });
      expect(a.spanCount).toBe(r.tree.length);
      // Tokens: the sum of every generation's usage (ScriptedModel: 10 in / 5 out per call).
      const calls = spanRows(live).filter((x) => x.kind === 'generation').length;
      expect(calls).toBe(5);
      expect(a.tokens).toEqual({ input: 10 * calls, output: 5 * calls, total: 15 * calls });
      expect(a.durationMs).toBe(a.endedAt! - a.startedAt);
    });
  }

  it('a paused run shows its waiting approval; approved or rejected once resumed', async () => {
    const paused = summarize(only(storeOf((await deskRun({ decision: 'none' })).events)));
    expect(paused.status).toBe('paused');
    expect(paused.approvals).toEqual([
      expect.objectContaining({
        toolName: 'issue_refund',
        callId: 'c3',
        agentName: 'Refund Agent',
        state: 'waiting',
        arguments: '{"orderId":"#42","amountCents":1299}',
      }),
    ]);
    const approved = await deskRun({ decision: 'approve' });
    expect(approved.refunds).toEqual(['#42']);
    expect(summarize(only(storeOf(approved.events))).approvals[0].state).toBe('approved');
    const rejected = await deskRun({ decision: 'reject' });
    expect(rejected.refunds).toEqual([]);
    const s = summarize(only(storeOf(rejected.events)));
    expect(s.approvals[0].state).toBe('rejected');
    expect(s.status).toBe('completed');
    // The paused agent row says what it waits on.
    const rows = spanRows(only(storeOf((await deskRun({ decision: 'none' })).events)));
    expect(rows.filter((x) => x.waitingOn.length).map((x) => [x.label, x.waitingOn])).toEqual([
      ['agent Refund Agent', ['issue_refund']],
    ]);
  });

  it('span_start shows a running span that its end replaces; replays and shuffles change nothing', async () => {
    const r = await deskRun();
    const starts = r.events.filter((e) => e.type === 'span_start');
    expect(starts.length).toBe(r.tree.length);
    const store = new TraceStore();
    store.ingest([r.events[0], starts[0]]);
    const t = only(store);
    expect(summarize(t).status).toBe('running');
    expect(spanRows(t, starts[0].startedAt + 250)[0]).toMatchObject({
      status: 'running',
      durationMs: 250,
    });
    store.ingest(r.events);
    const final = summarize(t);
    expect(final.status).toBe('completed');
    // A late span_start never reopens an ended span; the same events again change nothing.
    store.ingest(starts);
    store.ingest(r.events);
    expect(summarize(t)).toEqual(final);
    const shuffled = [...r.events].reverse();
    const other = only(storeOf(shuffled));
    expect(summarize(other)).toEqual(final);
    const shape = (rows: ReturnType<typeof spanRows>) =>
      rows.map((x) => `${x.id}@${x.depth}<${x.span.parentId}`).sort();
    expect(shape(spanRows(other))).toEqual(shape(spanRows(t)));
  });

  it('a failed run is an error trace; a redacted tool error is marked redacted', async () => {
    const failing = await record(async () => {
      const agent = new Agent({
        name: 'Flaky',
        model: new ScriptedModel([{ error: new Error('upstream 503') }]),
      });
      await run(agent, 'hi', { retry: { maxRetries: 0 } }).catch(() => undefined);
      return [];
    });
    const s = summarize(only(storeOf(failing.events)));
    expect(s.status).toBe('error');
    expect(s.errorCount).toBeGreaterThan(0);
    const rows = spanRows(only(storeOf(failing.events)));
    expect(rows.find((x) => x.kind === 'agent')?.detail).toContain('upstream 503');
    expect(kindCounts(rows).errors).toBe(s.errorCount);

    const desk = buildDesk({ failingLookup: true });
    // Without sensitive data the real error reaches no span (with it, span.error.data has it).
    const redacted = await record(async () => [
      await run(desk.triage, 'broken mug', { tracing: { includeSensitiveData: false } }),
    ]);
    const fn = spanRows(only(storeOf(redacted.events))).find(
      (x) => x.kind === 'function' && x.label === 'function lookup_order',
    )!;
    expect(fn.status).toBe('error');
    const error = spanDetail(fn.span).find((f) => f.label === 'Error')!;
    expect(error.value).toEqual({
      type: 'text',
      text: `${KERNEL_REDACTED}\n(redacted: the tool's error function hid the details)`,
    });
    expect(JSON.stringify(redacted.events)).not.toContain('hunter2');
    // The run itself went on: the trace is not an error.
    expect(summarize(only(storeOf(redacted.events))).status).toBe('completed');
  });

  it("the page's copy of REDACTED_TOOL_ERROR is the kernel's", () => {
    expect(REDACTED_TOOL_ERROR).toBe(KERNEL_REDACTED);
  });

  it('a generation span shows model, settings, usage and its input/output as a chat', async () => {
    const r = await deskRun();
    const rows = spanRows(only(storeOf(r.events)));
    const gen = rows.find((x) => x.kind === 'generation')!;
    const fields = Object.fromEntries(spanDetail(gen.span).map((f) => [f.label, f.value]));
    expect(fields.Model).toEqual({ type: 'text', text: 'scripted' });
    expect(fields.Provider).toEqual({ type: 'text', text: 'scripted' });
    expect(fields.Usage).toEqual({
      type: 'text',
      text: 'inputTokens: 10\noutputTokens: 5\ntotalTokens: 15\nrequests: 1',
    });
    expect(fields.Input).toEqual({
      type: 'chat',
      entries: [
        {
          kind: 'message',
          role: 'system',
          text: 'You route customers of the shop.',
          attachments: [],
        },
        {
          kind: 'message',
          role: 'user',
          text: 'My ceramic mug #42 arrived broken',
          attachments: [],
        },
      ],
    });
    expect(fields.Output).toEqual({
      type: 'chat',
      entries: [
        { kind: 'message', role: 'assistant', text: 'Routing you to refunds.', attachments: [] },
        { kind: 'tool_call', name: 'transfer_to_refund_agent', callId: 'h1', arguments: '{}' },
      ],
    });
    // The refund agent's second call sees the tool outputs.
    const third = rows.filter((x) => x.kind === 'generation')[3];
    const input = spanDetail(third.span).find((f) => f.label === 'Input')!.value as any;
    expect(
      input.entries.filter((e: any) => e.kind === 'tool_output').map((e: any) => e.callId),
    ).toEqual(expect.arrayContaining(['c1', 'c2']));
    const fn = rows.find((x) => x.label === 'function lookup_order')!;
    const fnFields = Object.fromEntries(spanDetail(fn.span).map((f) => [f.label, f.value]));
    expect(fnFields.Arguments).toEqual({ type: 'json', value: { orderId: '#42' } });
    expect(fnFields.Output).toEqual({
      type: 'json',
      value: { orderId: '#42', item: 'ceramic mug', priceCents: 1299 },
    });
  });

  for (const stream of [false, true]) {
    it(`without sensitive data, inputs, outputs and arguments show as redacted (stream: ${stream})`, async () => {
      const r = await deskRun({ includeSensitiveData: false, decision: 'none', stream });
      const t = only(storeOf(r.events));
      const rows = spanRows(t);
      const reason = 'not recorded: the run traced with includeSensitiveData: false';
      for (const row of rows.filter((x) => x.kind === 'generation' || x.kind === 'function')) {
        const fields = spanDetail(row.span);
        const wanted = row.kind === 'generation' ? ['Input', 'Output'] : ['Arguments', 'Output'];
        for (const label of wanted)
          expect(fields.find((f) => f.label === label)?.value).toEqual({
            type: 'redacted',
            reason,
          });
      }
      const approval = summarize(t).approvals[0];
      expect(approval.toolName).toBe('issue_refund');
      expect(approval.arguments).toBeUndefined();
      expect(JSON.stringify(r.events)).not.toContain('ceramic');
    });
  }

  it('transcripts render parts, attachments, refusals, reasoning (shown or redacted) and unknown items', () => {
    const entries = toTranscript([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'look' },
          { type: 'input_image', image_url: 'https://example.test/cat.png' },
          { type: 'input_file', filename: 'a.pdf' },
        ],
      },
      { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'no' }] },
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'thinking' }] },
      { type: 'reasoning', summary: [], encrypted_content: 'xyz' },
      { type: 'function_call_output', call_id: 'c9', output: [{ type: 'input_text', text: 'x' }] },
      { type: 'web_search_call', id: 'ws1', status: 'completed' },
    ]);
    expect(entries.map((e) => e.kind)).toEqual([
      'message',
      'message',
      'reasoning',
      'reasoning',
      'tool_output',
      'other',
    ]);
    expect(entries[0]).toMatchObject({
      text: 'look',
      attachments: ['image https://example.test/cat.png', 'file a.pdf'],
    });
    expect(entries[1]).toMatchObject({ text: '(refusal) no' });
    expect(entries[2]).toEqual({ kind: 'reasoning', text: 'thinking', redacted: false });
    expect(entries[3]).toMatchObject({ kind: 'reasoning', redacted: true });
    expect(entries[5]).toMatchObject({ kind: 'other', type: 'web_search_call' });
  });

  it('filters by kind, by error and by text, keeping ancestors as context', async () => {
    const r = await deskRun();
    const rows = spanRows(only(storeOf(r.events)));
    const gens = filterRows(rows, { kinds: new Set(['generation']) });
    expect(gens.filter((x) => x.match).every((x) => x.row.kind === 'generation')).toBe(true);
    expect(gens.filter((x) => x.match)).toHaveLength(5);
    // Every shown non-match is an ancestor of a match (agent / turn / function context).
    expect(new Set(gens.filter((x) => !x.match).map((x) => x.row.kind))).toEqual(
      new Set(['agent', 'turn', 'function']),
    );
    expect(filterRows(rows, { errorsOnly: true })).toEqual([]);
    const text = filterRows(rows, { query: 'CERAMIC' }).filter((x) => x.match);
    expect(text.length).toBeGreaterThan(0);
    expect(text.some((x) => x.row.label === 'function lookup_order')).toBe(true);
    expect(filterRows(rows, {})).toHaveLength(rows.length);
  });

  it('the agent graph has the agents, tools and handoffs, and the path this run took', async () => {
    const paused = agentGraph(only(storeOf((await deskRun({ decision: 'none' })).events)));
    const node = (g: typeof paused, id: string) => g.nodes.find((n) => n.id === id)!;
    const edge = (g: typeof paused, id: string) => g.edges.find((e) => e.id === id)!;
    expect(node(paused, 'agent:Triage Agent')).toMatchObject({ taken: true, steps: [1] });
    expect(node(paused, 'agent:Refund Agent')).toMatchObject({
      taken: true,
      steps: [2],
      waiting: true,
    });
    expect(node(paused, 'agent:Billing Agent')).toMatchObject({ taken: false, declaredOnly: true });
    expect(edge(paused, 'handoff:agent:Triage Agent->agent:Refund Agent')).toMatchObject({
      taken: true,
      steps: [2],
    });
    expect(edge(paused, 'handoff:agent:Triage Agent->agent:Billing Agent').taken).toBe(false);
    expect(node(paused, 'tool:Refund Agent/lookup_order')).toMatchObject({ taken: true, calls: 1 });
    expect(node(paused, 'tool:Refund Agent/issue_refund')).toMatchObject({
      waiting: true,
      calls: 0,
    });
    expect(edge(paused, 'as_tool:tool:Refund Agent/policy_agent->agent:Policy Agent').taken).toBe(
      true,
    );
    expect(paused.nodes.some((n) => n.kind === 'end')).toBe(false);
    expect(pathCaption(paused)).toBe(
      'start → Triage Agent → Refund Agent → (paused: waiting for approval)',
    );

    const done = agentGraph(only(storeOf((await deskRun()).events)));
    expect(node(done, 'agent:Refund Agent')).toMatchObject({ steps: [2, 3] });
    expect(node(done, 'agent:Refund Agent').waiting).toBeFalsy();
    expect(node(done, 'tool:Refund Agent/issue_refund')).toMatchObject({ calls: 1, taken: true });
    expect(node(done, 'tool:Refund Agent/issue_refund').waiting).toBeFalsy();
    expect(edge(done, 'end:agent:Refund Agent->end').taken).toBe(true);
    expect(pathCaption(done)).toBe(
      'start → Triage Agent → Refund Agent → (paused, resumed) → Refund Agent → end',
    );

    const placed = layoutGraph(done);
    for (const a of placed.nodes)
      for (const b of placed.nodes) {
        if (a === b) continue;
        const apart =
          Math.abs(a.x - b.x) * 2 >= a.width + b.width ||
          Math.abs(a.y - b.y) * 2 >= a.height + b.height;
        expect(apart, `${a.id} overlaps ${b.id}`).toBe(true);
      }
    expect(placed.edges.every((e) => e.points.length >= 2)).toBe(true);
  });

  it('the time axis collapses a long pause between segments so each segment stays readable', async () => {
    const r = await deskRun();
    // Move the resumed segment one hour later, as when a person approves after lunch.
    const secondStart = r.events.filter((e) => e.type === 'trace_start')[1].startedAt;
    const hour = 3_600_000;
    const shifted = r.events.map((e) =>
      e.startedAt >= secondStart
        ? {
            ...e,
            startedAt: e.startedAt + hour,
            ...(e.endedAt !== undefined ? { endedAt: e.endedAt + hour } : {}),
          }
        : e,
    ) as TraceEvent[];
    const t = only(storeOf(shifted));
    const axis = timeAxis(t);
    expect(axis.gaps).toHaveLength(1);
    expect(axis.gaps[0].realMs).toBeGreaterThan(hour - 1000);
    expect(axis.gaps[0].at).toBeGreaterThan(0);
    expect(axis.gaps[0].at).toBeLessThan(1);
    // Monotonic, 0 at the start, 1 at the end; the resumed segment gets a real share of the width.
    expect(axis.at(axis.start)).toBe(0);
    expect(axis.at(axis.end)).toBe(1);
    expect(axis.at(secondStart + hour)).toBeLessThan(0.95);
    // timeAt inverts at (outside the collapsed gap).
    for (const time of [axis.start, secondStart + hour + 1, axis.end])
      expect(axis.timeAt(axis.at(time))).toBeCloseTo(time, 3);
    let prev = -1;
    for (let x = axis.start; x <= axis.end; x += (axis.end - axis.start) / 500) {
      const v = axis.at(x);
      expect(v).toBeGreaterThanOrEqual(prev);
      prev = v;
    }
    // Without the gap, no collapse.
    expect(timeAxis(only(storeOf(r.events))).gaps.length).toBeLessThanOrEqual(1);
  });

  it('lists traces newest first and filters them by text and status', async () => {
    const a = await deskRun({ decision: 'none' });
    const store = storeOf(a.events);
    const b = await record(async () => {
      const agent = new Agent({
        name: 'Solo',
        model: new ScriptedModel([[fc('nope', {}, 'x1')], { error: new Error('down') }]),
      });
      await run(agent, 'hi', { workflowName: 'other', retry: { maxRetries: 0 } }).catch(() => {});
      return [];
    });
    store.ingest(b.events);
    expect(listTraces(store).map((s) => s.name)).toEqual(['other', 'support-desk']);
    expect(listTraces(store, { status: 'paused' }).map((s) => s.name)).toEqual(['support-desk']);
    expect(listTraces(store, { status: 'error' }).map((s) => s.name)).toEqual(['other']);
    expect(listTraces(store, { query: 'solo' }).map((s) => s.name)).toEqual(['other']);
    expect(listTraces(store, { query: 'refund agent' }).map((s) => s.name)).toEqual([
      'support-desk',
    ]);
  });

  it('orphans (a span whose parent is not in the trace) are shown at the top level, flagged', () => {
    const t = only(
      storeOf([
        { type: 'trace_start', traceId: 't1', name: 'w', startedAt: 1 },
        {
          type: 'span',
          traceId: 't1',
          spanId: 's2',
          parentId: 'gone',
          data: { kind: 'custom', name: 'late' },
          startedAt: 2,
          endedAt: 3,
        },
        { type: 'trace_end', traceId: 't1', name: 'w', startedAt: 1, endedAt: 4 },
      ]),
    );
    expect(spanRows(t).map((r) => [r.label, r.depth, r.orphan])).toEqual([
      ['custom late', 0, true],
    ]);
  });
});
