import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc, msg, RecordingTraceProcessor, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runMode } from '../__tests__/both-modes.js';
import { buildDesk } from '../__tests__/support-desk.js';
import { Agent } from '../agent/agent.js';
import { UserError } from '../errors/errors.js';
import { inputGuardrail } from '../guardrail/guardrail.js';
import type { FunctionCallOutputItem, Item } from '../items/item-types.js';
import { DEFAULT_REJECTION_TEXT } from '../loop/execute-tools.js';
import { run } from '../loop/run.js';
import { MemorySession } from '../session/memory-session.js';
import { tool } from '../tool/tool.js';
import { setTraceProcessors } from '../tracing/processors.js';
import { RunState } from './run-state.js';

const outputs = (items: Item[]) =>
  Object.fromEntries(
    items
      .filter((i): i is FunctionCallOutputItem => i.type === 'function_call_output')
      .map((i) => [i.call_id, i.output]),
  );

function gatedAgent(script: any[], counts: Record<string, number>) {
  const mk = (name: string, needsApproval = true) =>
    tool({
      name,
      description: '',
      parameters: z.object({ n: z.number() }),
      needsApproval,
      execute: ({ n }) => {
        counts[name] = (counts[name] ?? 0) + 1;
        return `${name}:${n}`;
      },
    });
  const model = new ScriptedModel(script);
  return {
    agent: new Agent({
      name: 'Ops',
      tools: [mk('delete_file'), mk('send_email'), mk('read_file', false)],
      model,
    }),
    model,
  };
}

describe('approvals and RunState', () => {
  it('approve and reject (custom message): approved runs once, rejected never; no model call for the paused turn', async () => {
    for (const stream of [false, true]) {
      const counts: Record<string, number> = {};
      const { agent, model } = gatedAgent(
        [
          [
            fc('delete_file', { n: 1 }, 'c1'),
            fc('send_email', { n: 2 }, 'c2'),
            fc('read_file', { n: 3 }, 'c3'),
          ],
          [msg('done')],
        ],
        counts,
      );
      const first = await runMode(() => ({ agent, input: 'clean up' }), stream);
      const r1 = first.result!;
      expect(r1.interruptions.map((i) => [i.tool_name, i.call_id, i.arguments])).toEqual([
        ['delete_file', 'c1', '{"n":1}'],
        ['send_email', 'c2', '{"n":2}'],
      ]);
      expect(counts).toEqual({ read_file: 1 }); // the sibling ran in the paused turn
      expect(r1.finalOutput).toBeUndefined();
      const state = await RunState.fromString(agent, r1.state.toString());
      state.approve(state.getInterruptions()[0]);
      state.reject(state.getInterruptions()[1], { message: 'No emails on Sundays.' });
      const second = await runMode(() => ({ agent, input: state as any }), stream);
      const r2 = second.result!;
      expect(r2.finalOutput).toBe('done');
      expect(counts).toEqual({ read_file: 1, delete_file: 1 });
      expect(model.requests).toHaveLength(2);
      expect(outputs(model.requests[1].input)).toEqual({
        c1: 'delete_file:1',
        c2: 'No emails on Sundays.',
        c3: 'read_file:3',
      });
      expect(r2.state.currentTurn).toBe(2);
      expect(r2.usage.requests).toBe(2);
    }
  });

  it('reject without a message uses the default text; always-approve covers later calls', async () => {
    const counts: Record<string, number> = {};
    const { agent, model } = gatedAgent(
      [
        [fc('delete_file', { n: 1 }, 'c1'), fc('send_email', { n: 1 }, 'e1')],
        [fc('delete_file', { n: 2 }, 'c2')],
        [msg('ok')],
      ],
      counts,
    );
    const r1 = await run(agent, 'x');
    r1.state.approve(r1.interruptions[0], { always: true });
    r1.state.reject(r1.interruptions[1]);
    const r2 = await run(agent, r1.state);
    expect(r2.interruptions).toEqual([]);
    expect(r2.finalOutput).toBe('ok');
    expect(counts.delete_file).toBe(2);
    expect(outputs(model.requests[1].input).e1).toBe(DEFAULT_REJECTION_TEXT);
  });

  it('decisions in any order, across several resumes: undecided items interrupt again', async () => {
    const counts: Record<string, number> = {};
    const { agent, model } = gatedAgent(
      [
        [fc('delete_file', { n: 1 }, 'c1'), fc('send_email', { n: 2 }, 'c2')],
        [msg('both handled')],
      ],
      counts,
    );
    const r1 = await run(agent, 'x');
    const [, second] = r1.interruptions;
    r1.state.approve(second);
    const r2 = await run(agent, await RunState.fromString(agent, r1.state.toString()));
    expect(r2.interruptions.map((i) => i.call_id)).toEqual(['c1']);
    expect(counts).toEqual({ send_email: 1 });
    r2.state.approve(r2.interruptions[0]);
    const r3 = await run(agent, await RunState.fromString(agent, JSON.stringify(r2.state)));
    expect(r3.finalOutput).toBe('both handled');
    expect(counts).toEqual({ send_email: 1, delete_file: 1 });
    expect(model.requests).toHaveLength(2);
  });

  it('an approval-gated call and a handoff in one response: the handoff waits for the decision', async () => {
    let refunded = 0;
    const next = new Agent({ name: 'Closer', model: new ScriptedModel([[msg('closed')]]) });
    const t = tool({
      name: 'refund',
      description: '',
      needsApproval: true,
      execute: () => ++refunded,
    });
    const agent = new Agent({
      name: 'Desk',
      tools: [t],
      handoffs: [next],
      model: new ScriptedModel([[fc('refund', {}, 'c1'), fc('transfer_to_closer', {}, 'h1')]]),
    });
    const r1 = await run(agent, 'x');
    expect(r1.lastAgent.name).toBe('Desk');
    expect(r1.newItems.some((i) => i.type === 'handoff_output_item')).toBe(false);
    r1.state.approve(r1.interruptions[0]);
    const r2 = await run(agent, r1.state);
    expect(r2.lastAgent.name).toBe('Closer');
    expect(r2.finalOutput).toBe('closed');
    expect(refunded).toBe(1);
  });

  it('approvals inside an agent used as a tool surface in the parent and survive JSON', async () => {
    let wiped = 0;
    const wipe = tool({
      name: 'wipe_disk',
      description: '',
      needsApproval: true,
      execute: () => {
        wiped++;
        return 'wiped';
      },
    });
    const admin = new Agent({
      name: 'Admin',
      tools: [wipe],
      model: new ScriptedModel([[fc('wipe_disk', {}, 'n1')], [msg('disk wiped')]]),
    });
    const boss = new Agent({
      name: 'Boss',
      tools: [admin.asTool({ toolName: 'ask_admin' })],
      model: new ScriptedModel([
        [fc('ask_admin', { input: 'wipe it' }, 'p1')],
        [msg('admin says: done')],
      ]),
    });
    const r1 = await run(boss, 'go');
    expect(r1.interruptions).toHaveLength(1);
    expect(r1.interruptions[0]).toMatchObject({
      tool_name: 'wipe_disk',
      call_id: 'n1',
      path: ['p1'],
    });
    expect(r1.interruptions[0].agent.name).toBe('Admin');
    const restored = await RunState.fromString(boss, r1.state.toString());
    restored.approve(restored.getInterruptions()[0]);
    const r2 = await run(boss, restored);
    expect(r2.finalOutput).toBe('admin says: done');
    expect(wiped).toBe(1);
    expect(outputs(r2.history).p1).toBe('disk wiped');
  });

  it('resumes in a fresh process from the JSON alone', async () => {
    const desk = buildDesk({ refundNeedsApproval: true });
    setTraceProcessors([new RecordingTraceProcessor()]);
    const r1 = await run(desk.triage, 'My mug arrived broken, order #42').finally(() =>
      setTraceProcessors([]),
    );
    expect(r1.interruptions.map((i) => i.tool_name)).toEqual(['issue_refund']);
    expect(desk.sideEffects.refunds).toEqual([]);
    const dir = mkdtempSync(join(tmpdir(), 'baton-state-'));
    const file = join(dir, 'state.json');
    writeFileSync(file, r1.state.toString());
    const child = new URL('../../test-support/resume-child.ts', import.meta.url).pathname;
    const out = execFileSync(process.execPath, ['--import', 'tsx', child, file], {
      encoding: 'utf8',
    });
    const summary = JSON.parse(out);
    expect(summary.pid).not.toBe(process.pid);
    expect(summary.finalOutput).toEqual({ orderId: '#42', action: 'refund', amountCents: 1299 });
    expect(summary.refunds).toEqual(['#42']);
    expect(summary.modelCalls).toBe(1); // only the turn after the approval
    expect(summary.currentTurn).toBe(r1.state.currentTurn + 1);
    expect(summary.usage.requests).toBe(r1.usage.requests + 1);
    expect(summary.traceId).toBe(r1.state.trace!.traceId);
  });

  it('sessions: no duplicate items and no second input-guardrail run on resume', async () => {
    let guardrailRuns = 0;
    const g = inputGuardrail({
      name: 'g',
      execute: () => {
        guardrailRuns++;
        return { tripwireTriggered: false };
      },
    });
    const counts: Record<string, number> = {};
    const session = new MemorySession();
    const t = tool({
      name: 'delete_file',
      description: '',
      needsApproval: true,
      execute: () => {
        counts.d = (counts.d ?? 0) + 1;
        return 'deleted';
      },
    });
    const agent = new Agent({
      name: 'Ops',
      tools: [t],
      inputGuardrails: [g],
      model: new ScriptedModel([[fc('delete_file', {}, 'c1')], [msg('done')]]),
    });
    const r1 = await run(agent, 'delete it', { session });
    r1.state.approve(r1.interruptions[0]);
    const r2 = await run(agent, await RunState.fromString(agent, r1.state.toString()), { session });
    expect(r2.finalOutput).toBe('done');
    expect(guardrailRuns).toBe(1);
    const stored = await session.getItems();
    expect(stored.map((i) => i.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
      'message',
    ]);
    expect(r2.inputGuardrailResults).toHaveLength(1);
  });

  it('refuses a newer schemaVersion, corrupt or truncated JSON, and unknown or ambiguous agents', async () => {
    const counts: Record<string, number> = {};
    const { agent } = gatedAgent([[fc('delete_file', { n: 1 }, 'c1')]], counts);
    const r1 = await run(agent, 'x');
    const json = r1.state.toString();
    await expect(
      RunState.fromString(agent, json.replace('"schemaVersion":"1.1"', '"schemaVersion":"2.3"')),
    ).rejects.toThrow(/schemaVersion "2.3" is newer than this @baton\/kernel supports \("1.1"\)/);
    await expect(RunState.fromString(agent, json.slice(0, json.length / 2))).rejects.toThrow(
      /not valid JSON.*truncated/,
    );
    await expect(
      RunState.fromString(agent, json.replace('"currentTurn":1', '"currentTurn":"one"')),
    ).rejects.toThrow(UserError);
    await expect(RunState.fromString(agent, '{"schemaVersion":"1.0"}')).rejects.toThrow(
      /RunState JSON is invalid at/,
    );
    await expect(RunState.fromString(new Agent({ name: 'Other' }), json)).rejects.toThrow(
      /agent "Ops", which is not reachable/,
    );
    const twin = new Agent({ name: 'Ops' });
    await expect(
      RunState.fromString(new Agent({ name: 'Ops', handoffs: [twin] }), json),
    ).rejects.toThrow(/Two different agents are named "Ops"/);
  });

  it('loads and resumes every state in the fixture corpus', async () => {
    const dir = new URL('./__fixtures__/run-state/', import.meta.url).pathname;
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const desk = buildDesk({ refundNeedsApproval: true });
      (desk.models.refund as any).steps.splice(0, 2);
      const state = await RunState.fromString(desk.triage, readFileSync(join(dir, f), 'utf8'));
      for (const item of state.getInterruptions()) state.approve(item);
      const result = await run(desk.triage, state);
      expect(result.finalOutput, f).toEqual({
        orderId: '#42',
        action: 'refund',
        amountCents: 1299,
      });
      expect(desk.sideEffects.refunds, f).toEqual(['#42']);
    }
  });
});
