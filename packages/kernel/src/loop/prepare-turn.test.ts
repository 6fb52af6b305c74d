/**
 * What a turn is built from: capabilities (set up once per run, their tools, instruction
 * fragments, model settings, input processing and teardown with the run's outcome), the tool
 * and handoff definitions the model sees (hosted tools, enabled per turn), `resetToolChoice`,
 * and how the model is resolved.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import type { Capability, CapabilityRun, RunOutcome } from '../capability/capability.js';
import { UserError } from '../errors/errors.js';
import type { Item } from '../items/item-types.js';
import type { Model, ModelProvider } from '../model/model.js';
import { MemorySession } from '../session/memory-session.js';
import { type HostedTool, tool } from '../tool/tool.js';
import { run, runStep } from './run.js';

/** A capability that records what the loop asks of it. */
function recordingCapability(
  log: string[],
  options: { failTeardown?: string; toolName?: string } = {},
) {
  const capability: Capability & { runs: CapabilityRun[] } = {
    name: 'recorder',
    runs: [],
    setup(r) {
      log.push('setup');
      this.runs.push(r);
      r.state.set('counter', ((r.state.get('counter') as number) ?? 0) + 1);
    },
    tools: () => [
      tool({
        name: options.toolName ?? 'cap_tool',
        description: 'from the capability',
        execute: () => 'cap ok',
      }),
    ],
    instructions: () => 'Fragment from the capability.',
    modelSettings: (s) => ({ ...s, temperature: 0.1 }),
    processInput: (items) => [...items, { type: 'message', role: 'user', content: 'PS' } as Item],
    teardown(_r, outcome: RunOutcome) {
      log.push(`teardown:${outcome.type}`);
      if (options.failTeardown) throw new Error(options.failTeardown);
    },
  };
  return capability;
}

describe('capabilities in a run (both modes)', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`set up once per run; tools, instructions, settings and input reach every turn; teardown sees the outcome (${mode})`, async () => {
      const log: string[] = [];
      const cap = recordingCapability(log);
      const model = new ScriptedModel([[fc('cap_tool', {}, 'c1')], [msg('done')]]);
      const agent = new Agent({
        name: 'A',
        instructions: 'Base instructions.',
        model,
        capabilities: [cap],
      });
      const outcome = await runMode(
        () => ({ agent, input: 'hi', options: { session: new MemorySession() } }),
        stream,
      );
      expect(outcome.error).toBeUndefined();
      expect(outcome.result!.finalOutput).toBe('done');
      // The agent's capability is cloned per run; the clone was set up once for two turns.
      expect(log).toEqual(['setup', 'teardown:final_output']);
      expect(model.requests).toHaveLength(2);
      for (const request of model.requests) {
        expect(request.systemInstructions).toBe(
          'Base instructions.\n\nFragment from the capability.',
        );
        expect(request.modelSettings.temperature).toBe(0.1);
        expect(request.tools.map((t) => t.name)).toEqual(['cap_tool']);
        expect(request.input.at(-1)).toEqual({ type: 'message', role: 'user', content: 'PS' });
      }
      expect(outcome.result!.state.extensions).toEqual({ counter: 1 });
    });

    it(`teardown outcomes: an interruption, one step of runStep, and an error (every teardown runs, the first error is thrown) (${mode})`, async () => {
      const log: string[] = [];
      const gated = tool({
        name: 'gated',
        description: '',
        needsApproval: true,
        execute: () => 'x',
      });
      const paused = new Agent({
        name: 'A',
        tools: [gated],
        model: new ScriptedModel([[fc('gated', {}, 'g1')]]),
        capabilities: [recordingCapability(log)],
      });
      const first = await runMode(() => ({ agent: paused, input: 'go' }), stream);
      expect(first.result!.interruptions).toHaveLength(1);
      expect(log).toEqual(['setup', 'teardown:interruption']);

      log.length = 0;
      const failing = new Agent({
        name: 'B',
        model: new ScriptedModel([[msg('fine')]]),
        capabilities: [
          recordingCapability(log, { failTeardown: 'first teardown failed' }),
          recordingCapability(log, { failTeardown: 'second teardown failed', toolName: 'other' }),
        ],
      });
      const outcome = await runMode(() => ({ agent: failing, input: 'go' }), stream);
      expect((outcome.error as Error).message).toBe('first teardown failed');
      expect(log).toEqual(['setup', 'setup', 'teardown:final_output', 'teardown:final_output']);
    });
  }

  it('runStep tears down with outcome "step" after a turn that runs again', async () => {
    const log: string[] = [];
    const agent = new Agent({
      name: 'A',
      tools: [tool({ name: 'noop', description: '', execute: () => 'ok' })],
      model: new ScriptedModel([[fc('noop', {}, 'n1')], [msg('done')]]),
      capabilities: [recordingCapability(log)],
    });
    const step = await runStep(agent, 'go');
    expect(step.nextStep).toBe('run_again');
    expect(log).toEqual(['setup', 'teardown:step']);
  });

  it('a capability sees the transcript and the session id; an agent without capabilities needs none of it', async () => {
    let seen: ReturnType<NonNullable<CapabilityRun['transcript']>> | undefined;
    const cap: Capability = {
      name: 'reader',
      instructions: (r) => {
        seen = r.transcript?.();
        return undefined;
      },
    };
    const session = new MemorySession({ sessionId: 'conv_9' });
    await run(
      new Agent({ name: 'A', model: new ScriptedModel([[msg('ok')]]), capabilities: [cap] }),
      'new text',
      {
        session,
      },
    );
    expect(seen).toEqual({
      input: [{ type: 'message', role: 'user', content: 'new text' }],
      generated: [],
      sessionId: 'conv_9',
    });
    // An undefined fragment adds nothing to the instructions.
    const model = new ScriptedModel([[msg('ok')]]);
    await run(
      new Agent({ name: 'B', instructions: 'Only this.', model, capabilities: [cap] }),
      'x',
    );
    expect(model.requests[0].systemInstructions).toBe('Only this.');
  });
});

describe('tool and handoff definitions of a turn', () => {
  const hosted: HostedTool = {
    type: 'hosted_tool',
    name: 'web_search',
    providerId: 'openai',
    providerData: { type: 'web_search' },
  };

  it('hosted tools are sent as hosted_tool definitions, function tools and handoffs as functions; isEnabled filters them per turn', async () => {
    let searchOn = true;
    const toggled: HostedTool = { ...hosted, name: 'toggled', isEnabled: () => searchOn };
    const expert = new Agent({ name: 'Expert', handoffDescription: 'Knows things.' });
    const model = new ScriptedModel([[fc('echo', { t: 'a' }, 'c1')], [msg('done')]]);
    const agent = new Agent({
      name: 'A',
      model,
      tools: [
        hosted,
        toggled,
        tool({
          name: 'echo',
          description: 'Echoes',
          execute: () => {
            searchOn = false;
            return 'echoed';
          },
        }),
      ],
      handoffs: [expert],
    });
    await run(agent, 'x');
    expect(model.requests[0].tools).toEqual([
      {
        type: 'hosted_tool',
        name: 'web_search',
        providerId: 'openai',
        providerData: { type: 'web_search' },
      },
      {
        type: 'hosted_tool',
        name: 'toggled',
        providerId: 'openai',
        providerData: { type: 'web_search' },
      },
      expect.objectContaining({ type: 'function', name: 'echo', description: 'Echoes' }),
      expect.objectContaining({
        type: 'function',
        name: 'transfer_to_expert',
        description: expect.stringContaining('Knows things.'),
      }),
    ]);
    expect(model.requests[1].tools.map((t) => t.name)).toEqual([
      'web_search',
      'echo',
      'transfer_to_expert',
    ]);
  });

  it('resetToolChoice sets a forced tool choice back to auto after the agent used a tool; "none" stays', async () => {
    for (const [forced, second] of [
      ['required', 'auto'],
      ['none', 'none'],
      ['echo', 'auto'],
    ] as const) {
      const model = new ScriptedModel([[fc('echo', {}, 'c1')], [msg('done')]]);
      const agent = new Agent({
        name: 'A',
        model,
        tools: [tool({ name: 'echo', description: '', execute: () => 'ok' })],
        modelSettings: { toolChoice: forced },
      });
      await run(agent, 'x');
      expect([
        model.requests[0].modelSettings.toolChoice,
        model.requests[1].modelSettings.toolChoice,
      ]).toEqual([forced, second]);
    }
    const kept = new ScriptedModel([[fc('echo', {}, 'c1')], [msg('done')]]);
    await run(
      new Agent({
        name: 'A',
        model: kept,
        tools: [tool({ name: 'echo', description: '', execute: () => 'ok' })],
        modelSettings: { toolChoice: 'required' },
        resetToolChoice: false,
      }),
      'x',
    );
    expect(kept.requests[1].modelSettings.toolChoice).toBe('required');
  });
});

describe('model resolution', () => {
  it('a model name without a modelProvider is a UserError naming the agent and the model', async () => {
    await expect(run(new Agent({ name: 'Named', model: 'gpt-x' }), 'x')).rejects.toThrow(
      new UserError(
        'Agent "Named" has model "gpt-x" and the run has no modelProvider. Pass a Model instance, or run(..., { modelProvider: createProviderRegistry({...}) }).',
      ),
    );
    await expect(run(new Agent({ name: 'Bare' }), 'x')).rejects.toThrow(
      /^Agent "Bare" has no model and the run has no modelProvider\./,
    );
  });

  it('the provider is asked once per agent and run, also across turns', async () => {
    const asked: (string | undefined)[] = [];
    const model: Model = new ScriptedModel([[fc('echo', {}, 'c1')], [msg('done')]]);
    const provider: ModelProvider = {
      getModel: async (name) => {
        asked.push(name);
        return model;
      },
    };
    const agent = new Agent({
      name: 'A',
      model: 'fast-model',
      tools: [tool({ name: 'echo', description: '', execute: () => 'ok' })],
    });
    const result = await run(agent, 'x', { modelProvider: provider });
    expect(result.finalOutput).toBe('done');
    expect(asked).toEqual(['fast-model']);
  });
});
