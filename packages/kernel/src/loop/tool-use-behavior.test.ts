import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { runBothModes } from '../__tests__/both-modes.js';
import { Agent, type ToolUseBehavior } from '../agent/agent.js';
import { tool } from '../tool/tool.js';
import { run } from './run.js';

const tools = () => [
  tool({ name: 'weather', description: '', execute: () => 'sunny' }),
  tool({ name: 'news', description: '', execute: () => 'quiet day' }),
];

describe('toolUseBehavior', () => {
  const cases: [string, ToolUseBehavior, unknown, number][] = [
    ['run_llm_again (default)', 'run_llm_again', 'summary', 2],
    ['stop_on_first_tool', 'stop_on_first_tool', 'sunny', 1],
    ['stopAtToolNames', { stopAtToolNames: ['news'] }, 'quiet day', 1],
    [
      'a function',
      (_ctx, results) => ({
        isFinalOutput: true,
        finalOutput: results.map((r) => r.output).join(' + '),
      }),
      'sunny + quiet day',
      1,
    ],
  ];
  for (const [name, behavior, expected, calls] of cases) {
    it(`${name} decides the final output`, async () => {
      const { sync } = await runBothModes(() => {
        const m = new ScriptedModel([
          [fc('weather', {}, 'c1'), fc('news', {}, 'c2')],
          [msg('summary')],
        ]);
        return {
          agent: new Agent({ name: 'A', tools: tools(), toolUseBehavior: behavior, model: m }),
          input: 'x',
          models: [m],
        };
      });
      expect(sync.result!.finalOutput).toBe(expected);
      expect(sync.models[0].requests).toHaveLength(calls);
    });
  }

  it('resetToolChoice resets a forced tool choice after the agent used a tool, so it cannot loop', async () => {
    const m = new ScriptedModel([[fc('weather', {}, 'c1')], [msg('done')]]);
    const agent = new Agent({
      name: 'A',
      tools: tools(),
      modelSettings: { toolChoice: 'required' },
      model: m,
    });
    await run(agent, 'x');
    expect(m.requests.map((r) => r.modelSettings.toolChoice)).toEqual(['required', 'auto']);
    const keep = new ScriptedModel([[fc('weather', {}, 'c1')], [msg('done')]]);
    await run(agent.clone({ resetToolChoice: false, model: keep }), 'x');
    expect(keep.requests.map((r) => r.modelSettings.toolChoice)).toEqual(['required', 'required']);
  });
});
