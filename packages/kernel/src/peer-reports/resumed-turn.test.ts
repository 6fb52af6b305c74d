/**
 * `toolUseBehavior` in a turn that paused (approval) or failed (a fatal tool error) and was
 * resumed, in both modes and after a RunState JSON round trip: it sees every call of the turn
 * that ran, in call order — the same results as when the turn ran in one go — not only the
 * calls run after the resume (openai-agents-python#203 `stop_on_first_tool`: "the output of the
 * first tool call"; openai-agents-js#247 `stopAtToolNames`).
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { runMode } from '../__tests__/both-modes.js';
import { Agent, type FunctionToolResult, type ToolUseBehavior } from '../agent/agent.js';
import { RunState } from '../run-state/run-state.js';
import { MemorySession } from '../session/memory-session.js';
import { tool } from '../tool/tool.js';

type Pause = 'approval' | 'fatal error';

function scenario(pause: Pause, toolUseBehavior: ToolUseBehavior) {
  const counts = { first: 0, second: 0 };
  let failing = pause === 'fatal error';
  const first = tool({
    name: 'first',
    description: '',
    execute: async () => {
      await new Promise((r) => setTimeout(r, 1));
      return `first ${++counts.first}`;
    },
  });
  const second = tool({
    name: 'second',
    description: '',
    needsApproval: pause === 'approval',
    errorFunction: null,
    execute: () => {
      counts.second++;
      if (failing) {
        failing = false;
        throw new Error('ledger down');
      }
      return `second ${counts.second}`;
    },
  });
  const model = new ScriptedModel([
    [fc('first', {}, 'c1'), fc('second', {}, 'c2')],
    [msg('model again')],
  ]);
  const agent = new Agent({ name: 'A', tools: [first, second], model, toolUseBehavior });
  return { agent, model, counts };
}

async function pauseAndResume(
  pause: Pause,
  behavior: ToolUseBehavior,
  stream: boolean,
  decide: (state: RunState<any, any>) => void = (s) => s.approve(s.getInterruptions()[0]),
) {
  const { agent, model, counts } = scenario(pause, behavior);
  const session = new MemorySession();
  const first = await runMode(() => ({ agent, input: 'go', options: { session } }), stream);
  const paused =
    pause === 'approval'
      ? first.result!.state
      : ((first.error as { state?: RunState<any, any> }).state as RunState<any, any>);
  expect(paused).toBeInstanceOf(RunState);
  const state = await RunState.fromString(agent, paused.toString());
  if (pause === 'approval') decide(state);
  const second = await runMode(
    () => ({ agent, input: state as any, options: { session } }),
    stream,
  );
  expect(second.error).toBeUndefined();
  return { result: second.result!, model, counts, session };
}

for (const stream of [false, true])
  for (const pause of ['approval', 'fatal error'] as const)
    describe(`a resumed turn after ${pause === 'approval' ? 'an approval' : 'a fatal tool error'} (${stream ? 'streamed' : 'non-streamed'})`, () => {
      it('stop_on_first_tool ends with the first call of the response, which ran before the pause', async () => {
        const { result, model, counts } = await pauseAndResume(pause, 'stop_on_first_tool', stream);
        expect(result.finalOutput).toBe('first 1');
        expect(counts.first).toBe(1);
        expect(model.requests).toHaveLength(1);
      });

      it('stopAtToolNames matches a call that ran before the pause', async () => {
        const { result, model } = await pauseAndResume(
          pause,
          { stopAtToolNames: ['first'] },
          stream,
        );
        expect(result.finalOutput).toBe('first 1');
        expect(model.requests).toHaveLength(1);
      });

      it('a custom behavior sees every result of the turn, in call order', async () => {
        const seen: FunctionToolResult[][] = [];
        const { result } = await pauseAndResume(
          pause,
          (_ctx, results) => {
            seen.push(results);
            return { isFinalOutput: true, finalOutput: results.map((r) => r.output).join(' + ') };
          },
          stream,
        );
        expect(result.finalOutput).toBe(
          pause === 'approval' ? 'first 1 + second 1' : 'first 1 + second 2',
        );
        expect(seen.at(-1)!.map((r) => [r.toolName, r.callId])).toEqual([
          ['first', 'c1'],
          ['second', 'c2'],
        ]);
      });
    });

for (const stream of [false, true])
  it(`a rejected call is not a tool result (${stream ? 'streamed' : 'non-streamed'})`, async () => {
    const seen: string[][] = [];
    const { result } = await pauseAndResume(
      'approval',
      (_ctx, results) => {
        seen.push(results.map((r) => r.callId));
        return { isFinalOutput: false };
      },
      stream,
      (s) => s.reject(s.getInterruptions()[0]),
    );
    expect(result.finalOutput).toBe('model again');
    expect(seen.at(-1)).toEqual(['c1']);
  });
