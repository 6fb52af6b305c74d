/**
 * Approvals behind agents used as tools, two and three `asTool` edges deep
 * (openai-agents-python#4414, openai-agents-js#680/#996), and an approval resumed with a `context`
 * option (openai-agents-python#4244), in both modes, after a RunState JSON round trip: the
 * interruption names the innermost agent and its path, an approved tool runs exactly once, a
 * rejected one never, and each level's answer reaches its parent.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import type { RunResultBase } from '../loop/run-result.js';
import { RunState } from '../run-state/run-state.js';
import { tool } from '../tool/tool.js';

/** Agents `L0 → L1 → … → L(depth)`, each calling the next as a tool; the last one a protected tool. */
function chain(depth: number) {
  const runs: unknown[] = [];
  const wipe = tool({
    name: 'wipe_disk',
    description: '',
    needsApproval: true,
    execute: (_args, ctx) => {
      runs.push(ctx.context);
      return 'wiped';
    },
  });
  let inner = new Agent({
    name: `L${depth}`,
    tools: [wipe],
    model: new ScriptedModel([[fc('wipe_disk', {}, `w${depth}`)], [msg(`L${depth}: done`)]]),
  });
  for (let level = depth - 1; level >= 0; level--) {
    const child = inner;
    inner = new Agent({
      name: `L${level}`,
      tools: [child.asTool({ toolName: `ask_l${level + 1}` })],
      model: new ScriptedModel([
        [fc(`ask_l${level + 1}`, { input: 'go on' }, `c${level}`)],
        [msg(`L${level}: done`)],
      ]),
    });
  }
  return { top: inner, runs };
}

const outputOf = (result: RunResultBase, callId: string) =>
  (
    result.history.find((i) => i.type === 'function_call_output' && i.call_id === callId) as
      | { output: unknown }
      | undefined
  )?.output;

for (const stream of [false, true])
  describe(`approvals behind agents used as tools (${stream ? 'streamed' : 'non-streamed'})`, () => {
    for (const depth of [2, 3])
      for (const decision of ['approve', 'reject'] as const)
        it(`${depth} asTool edges deep, ${decision}d after JSON, resumed with a context`, async () => {
          const { top, runs } = chain(depth);
          const paused = await runMode(
            () => ({ agent: top, input: 'start', options: { context: { user: 'a' } } }),
            stream,
          );
          expect(paused.error).toBeUndefined();
          const [pending] = paused.result!.interruptions;
          expect(paused.result!.interruptions).toHaveLength(1);
          expect(pending.agent.name).toBe(`L${depth}`);
          expect(pending.tool_name).toBe('wipe_disk');
          expect(pending.path).toEqual(Array.from({ length: depth }, (_, i) => `c${i}`));
          expect(runs).toEqual([]);

          const state = await RunState.fromString(top, paused.result!.state.toString());
          const [restored] = state.getInterruptions();
          expect(restored.agent.name).toBe(`L${depth}`);
          if (decision === 'approve') state.approve(restored);
          else state.reject(restored, { message: 'not allowed' });
          const resumed = await runMode(
            () => ({ agent: top, input: state as never, options: { context: { user: 'b' } } }),
            stream,
          );
          expect(resumed.error).toBeUndefined();
          expect(resumed.result!.interruptions).toEqual([]);
          expect(resumed.result!.finalOutput).toBe('L0: done');
          // Exactly once when approved (with the resume's context), never when rejected.
          expect(runs).toEqual(decision === 'approve' ? [{ user: 'b' }] : []);
          expect(outputOf(resumed.result!, 'c0')).toBe('L1: done');
        });
  });
