import { fc, msg, ScriptedModel } from '@baton/testing';
import { it, expect } from 'vitest';
import { z } from 'zod';
import { runMode } from './__tests__/both-modes.js';
import { Agent } from './agent/agent.js';
import { inputGuardrail, outputGuardrail } from './guardrail/guardrail.js';
import { run } from './loop/run.js';
import { RunState } from './run-state/run-state.js';
import { tool } from './tool/tool.js';
for (const stream of [false, true]) {
it('handoff then approval, round trip ' + stream, async () => {
  let n = 0;
  const t = tool({ name: 'refund', description: '', needsApproval: true, execute: () => `r${++n}` });
  const closerModel = new ScriptedModel([[fc('refund', {}, 'c1')], [msg('refunded')]]);
  const closer = new Agent({ name: 'Closer', tools: [t], model: closerModel });
  const triage = new Agent({ name: 'Triage', handoffs: [closer], model: new ScriptedModel([[fc('transfer_to_closer', {}, 'h1')]]) });
  const r1 = await runMode(() => ({ agent: triage, input: 'x' }), stream);
  expect(r1.result!.interruptions).toHaveLength(1);
  expect(r1.result!.lastAgent.name).toBe('Closer');
  const st = await RunState.fromString(triage, r1.result!.state.toString());
  st.approve(st.getInterruptions()[0]);
  const r2 = await runMode(() => ({ agent: triage, input: st as any }), stream);
  expect(r2.error).toBeUndefined();
  expect(r2.result!.finalOutput).toBe('refunded');
  expect(r2.result!.lastAgent.name).toBe('Closer');
  expect(n).toBe(1);
  if (stream) expect(r1.events.some((e: any) => e.name === 'tool_approval_requested')).toBe(true);
});
it('blocking input guardrail: model never called ' + stream, async () => {
  const model = new ScriptedModel([[msg('x')]]);
  const agent = new Agent({ name: 'A', model, inputGuardrails: [inputGuardrail({ name: 'g', runInParallel: false, execute: () => ({ tripwireTriggered: true, outputInfo: null }) })] });
  const r = await runMode(() => ({ agent, input: 'x' }), stream);
  expect(r.error).toBeDefined();
  expect(model.requests).toHaveLength(0);
});
it('nested usage ' + stream, async () => {
  const inner = new Agent({ name: 'In', model: new ScriptedModel([{ output: [msg('inner')], usage: { inputTokens: 1000, outputTokens: 1, totalTokens: 1001 } }]) });
  const outer = new Agent({ name: 'Out', tools: [inner.asTool({})], model: new ScriptedModel([[fc('in', { input: 'q' }, 'o1')], [msg('ok')]]) });
  const r = await runMode(() => ({ agent: outer, input: 'x' }), stream);
  console.log('usage', stream, JSON.stringify(r.result!.usage), r.result!.newItems.map(i=>i.type));
});
it('handoff target outputType + output guardrail sees parsed ' + stream, async () => {
  const seen: unknown[] = [];
  const tgtModel = new ScriptedModel([[msg('{"n":5}')]]);
  const tgt = new Agent({ name: 'T', outputType: z.object({ n: z.number() }), model: tgtModel, outputGuardrails: [outputGuardrail({ name: 'o', execute: ({ output }) => { seen.push(output); return { tripwireTriggered: false, outputInfo: null }; } })] });
  const src = new Agent({ name: 'S', handoffs: [tgt], model: new ScriptedModel([[fc('transfer_to_t', {}, 'h')]]) });
  const r = await runMode(() => ({ agent: src, input: 'x' }), stream);
  expect(r.result!.finalOutput).toEqual({ n: 5 });
  expect(seen).toEqual([{ n: 5 }]);
  expect(tgtModel.requests[0].outputSchema ?? (tgtModel.requests[0] as any).outputType).toBeDefined();
});
it('toTextStream ' + stream, async () => {
  if (!stream) return;
  const t = tool({ name: 'x', description: '', execute: () => 'y' });
  const agent = new Agent({ name: 'A', tools: [t], model: new ScriptedModel([[msg('thinking...'), fc('x', {}, 'c')], [msg('final')]]) });
  const r = await run(agent, 'q', { stream: true });
  let text = '';
  for await (const d of r.toTextStream()) text += d;
  await r.completed;
  console.log('text', JSON.stringify(text));
});
}
