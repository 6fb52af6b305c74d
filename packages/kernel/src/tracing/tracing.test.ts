import { fc, msg, RecordingTraceProcessor, ScriptedModel } from '@baton/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runMode } from '../__tests__/both-modes.js';
import { buildDesk } from '../__tests__/support-desk.js';
import { Agent } from '../agent/agent.js';
import { run } from '../loop/run.js';
import { RunState } from '../run-state/run-state.js';
import { tool } from '../tool/tool.js';
import { setTraceProcessors, setTracingErrorHandler } from './processors.js';
import { withCustomSpan } from './span-context.js';

afterEach(() => setTraceProcessors([]));

const DESK_TREE = [
  'agent:Triage Agent',
  '  turn:Triage Agent',
  '    generation:scripted',
  '    handoff:Triage Agent->Refund Agent',
  'agent:Refund Agent',
  '  turn:Refund Agent',
  '    generation:scripted',
  '    function:lookup_order',
  '    function:policy_agent',
  '      agent:Policy Agent',
  '        turn:Policy Agent',
  '          generation:scripted',
  '  turn:Refund Agent',
  '    generation:scripted',
  '    function:issue_refund',
  '  turn:Refund Agent',
  '    generation:scripted',
];

describe('kernel tracing', () => {
  it('the support-desk span tree is the real nesting, identical in both modes', async () => {
    const trees: string[][] = [];
    for (const stream of [false, true]) {
      const rec = new RecordingTraceProcessor();
      setTraceProcessors([rec]);
      const outcome = await runMode(
        () => ({
          agent: buildDesk().triage,
          input: 'broken mug #42',
          options: {
            workflowName: 'support',
            groupId: 'conv-1',
            traceMetadata: { tenant: 'acme' },
          },
        }),
        stream,
      );
      expect(outcome.error).toBeUndefined();
      expect(rec.traces).toHaveLength(1);
      expect(rec.traces[0]).toMatchObject({
        name: 'support',
        groupId: 'conv-1',
        metadata: { tenant: 'acme' },
      });
      expect(rec.ended).toHaveLength(rec.started.length);
      expect(rec.events[0]).toMatch(/^trace_start/);
      expect(rec.events.at(-1)).toMatch(/^trace_end/);
      trees.push(rec.tree());
    }
    expect(trees[0]).toEqual(DESK_TREE);
    expect(trees[1]).toEqual(trees[0]);
  });

  it('includeSensitiveData: false keeps the structure and drops inputs, outputs and arguments', async () => {
    const rec = new RecordingTraceProcessor();
    setTraceProcessors([rec]);
    await run(buildDesk().triage, 'my secret order #42', {
      tracing: { includeSensitiveData: false },
    });
    expect(rec.tree()).toEqual(DESK_TREE);
    const dump = JSON.stringify(rec.ended);
    expect(dump).not.toContain('secret order');
    expect(dump).not.toContain('"input"');
    expect(dump).not.toContain('"output"');
    const withData = new RecordingTraceProcessor();
    setTraceProcessors([withData]);
    await run(buildDesk().triage, 'my secret order #42');
    expect(JSON.stringify(withData.ended)).toContain('secret order');
  });

  it('redacted tool errors reach no span of a run without sensitive data', async () => {
    const rec = new RecordingTraceProcessor();
    setTraceProcessors([rec]);
    const t = tool({
      name: 'db',
      description: '',
      execute: () => {
        throw new Error('password=hunter2');
      },
    });
    await run(
      new Agent({
        name: 'A',
        tools: [t],
        model: new ScriptedModel([[fc('db', {}, 'c1')], [msg('sorry')]]),
      }),
      'x',
      { tracing: { includeSensitiveData: false } },
    );
    const fnSpan = rec.ended.find((s) => s.data.kind === 'function')!;
    expect(fnSpan.error?.message).toBe(
      'An error occurred while running the tool. Please try again.',
    );
    expect(JSON.stringify(rec.ended)).not.toContain('hunter2');
  });

  it('a throwing processor does not change the run, and is reported once', async () => {
    const reported: unknown[] = [];
    setTracingErrorHandler((e) => reported.push(e));
    const bad = {
      onTraceStart() {
        throw new Error('boom');
      },
      onTraceEnd() {
        throw new Error('boom');
      },
      onSpanStart() {
        throw new Error('boom');
      },
      onSpanEnd() {
        throw new Error('boom');
      },
      forceFlush: async () => {},
      shutdown: async () => {},
    };
    const rec = new RecordingTraceProcessor();
    setTraceProcessors([bad, rec]);
    const result = await run(buildDesk().triage, 'broken mug #42');
    expect(result.finalOutput).toEqual({ orderId: '#42', action: 'refund', amountCents: 1299 });
    expect(reported).toHaveLength(1);
    expect(rec.tree()).toEqual(DESK_TREE);
  });

  it('disabled tracing creates no spans at all', async () => {
    const rec = new RecordingTraceProcessor();
    setTraceProcessors([rec]);
    await run(buildDesk().triage, 'x', { tracing: { disabled: true } });
    expect(rec.events).toEqual([]);
  });

  it('a resumed run continues the same trace id', async () => {
    const rec = new RecordingTraceProcessor();
    setTraceProcessors([rec]);
    const desk = buildDesk({ refundNeedsApproval: true });
    const r1 = await run(desk.triage, 'broken mug #42');
    const state = await RunState.fromString(desk.triage, r1.state.toString());
    state.approve(state.getInterruptions()[0]);
    await run(desk.triage, state);
    expect(rec.traces).toHaveLength(2);
    expect(rec.traces[1].traceId).toBe(rec.traces[0].traceId);
    expect(
      rec.ended.filter(
        (s) => s.data.kind === 'function' && (s.data as any).name === 'issue_refund',
      ),
    ).toHaveLength(1);
  });

  it('a paused run records the calls waiting for approval on its agent span, in both modes', async () => {
    for (const stream of [false, true]) {
      for (const includeSensitiveData of [true, false]) {
        const rec = new RecordingTraceProcessor();
        setTraceProcessors([rec]);
        const desk = buildDesk({ refundNeedsApproval: true });
        const outcome = await runMode(
          () => ({
            agent: desk.triage,
            input: 'broken mug #42',
            options: { tracing: { includeSensitiveData } },
          }),
          stream,
        );
        expect(outcome.result?.interruptions).toHaveLength(1);
        const agents = rec.ended.filter((s) => s.data.kind === 'agent');
        const paused = agents.find((s) => (s.data as any).name === 'Refund Agent')!;
        expect((paused.data as any).interruptions).toEqual([
          {
            toolName: 'issue_refund',
            callId: 'c3',
            kind: 'approval',
            path: [],
            ...(includeSensitiveData ? { arguments: '{"orderId":"#42","amountCents":1299}' } : {}),
          },
        ]);
        expect(agents.filter((s) => (s.data as any).interruptions)).toHaveLength(1);
        // After a JSON round trip of the state, the resumed segment's agent span has none.
        const state = await RunState.fromString(desk.triage, outcome.result!.state.toString());
        state.approve(state.getInterruptions()[0]);
        const before = rec.ended.length;
        await run(desk.triage, state);
        const resumed = rec.ended.slice(before).filter((s) => s.data.kind === 'agent');
        expect(resumed.length).toBeGreaterThan(0);
        expect(resumed.every((s) => (s.data as any).interruptions === undefined)).toBe(true);
      }
    }
  });

  it('withCustomSpan nests under the calling tool, even for concurrent tools', async () => {
    const rec = new RecordingTraceProcessor();
    setTraceProcessors([rec]);
    const t = tool({
      name: 'work',
      description: '',
      execute: async (_a, _c, d) =>
        withCustomSpan(`step-${d.callId}`, async () => {
          await new Promise((r) => setTimeout(r, d.callId === 'a' ? 20 : 1));
          return 'ok';
        }),
    });
    await run(
      new Agent({
        name: 'A',
        tools: [t],
        model: new ScriptedModel([[fc('work', {}, 'a'), fc('work', {}, 'b')], [msg('done')]]),
      }),
      'x',
    );
    const byId = new Map(rec.started.map((s) => [s.spanId, s]));
    for (const id of ['a', 'b']) {
      const custom = rec.started.find(
        (s) => s.data.kind === 'custom' && (s.data as any).name === `step-${id}`,
      )!;
      expect((byId.get(custom.parentId!)!.data as any).callId).toBe(id);
    }
  });
});
