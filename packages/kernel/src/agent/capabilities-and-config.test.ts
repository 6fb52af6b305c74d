/** Agents with capabilities (their run hooks and outcomes), and agent configuration checks. */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Capability, CapabilityRun, RunOutcome } from '../capability/capability.js';
import { UserError } from '../errors/errors.js';
import type { HandoffInputFilter } from '../handoff/handoff.js';
import type { FunctionCallOutputItem, Item } from '../items/item-types.js';
import { run } from '../loop/run.js';
import { tool } from '../tool/tool.js';
import { Agent } from './agent.js';

/** A filter that keeps only the messages of the input history. */
const _messagesOnly: HandoffInputFilter = (d) => ({
  ...d,
  inputHistory: d.inputHistory.filter((i) => i.type === 'message'),
  preHandoffItems: [],
  newItems: [],
});

const _outputs = (items: Item[]) =>
  Object.fromEntries(
    items
      .filter((i): i is FunctionCallOutputItem => i.type === 'function_call_output')
      .map((i) => [i.call_id, i.output]),
  );

describe('capabilities', () => {
  class Clock implements Capability {
    readonly name = 'clock';
    events: string[] = [];
    static log: string[] = [];
    async setup(run: CapabilityRun) {
      Clock.log.push(`setup model=${(await run.getModel()).modelId}`);
    }
    teardown(_run: CapabilityRun, outcome: RunOutcome) {
      Clock.log.push(`teardown ${outcome.type}`);
    }
    tools() {
      return [
        tool({ name: 'current_time', description: 'Now', execute: () => '2026-11-30T12:00:00Z' }),
      ];
    }
    instructions() {
      return 'You can read the clock with current_time.';
    }
    modelSettings(s: any) {
      return { ...s, temperature: 0 };
    }
  }

  it('adds tools, instructions and settings per run; the public agent stays the identity; teardown on every exit', async () => {
    Clock.log = [];
    const m = new ScriptedModel([[fc('current_time', {}, 'c1')], [msg('It is noon.')]]);
    const agent = new Agent({
      name: 'A',
      instructions: 'Be brief.',
      capabilities: [new Clock()],
      model: m,
    });
    const r = await run(agent, 'time?');
    expect(r.finalOutput).toBe('It is noon.');
    expect(m.requests[0].systemInstructions).toBe(
      'Be brief.\n\nYou can read the clock with current_time.',
    );
    expect(m.requests[0].tools.map((t) => t.name)).toEqual(['current_time']);
    expect(m.requests[0].modelSettings.temperature).toBe(0);
    expect(r.lastAgent).toBe(agent);
    expect(agent.tools).toHaveLength(0);
    expect(Clock.log).toEqual(['setup model=scripted', 'teardown final_output']);
    const failing = new Agent({
      name: 'B',
      capabilities: [new Clock()],
      model: new ScriptedModel([{ error: new Error('model down') }]),
    });
    await expect(run(failing, 'x')).rejects.toThrow('model down');
    expect(Clock.log).toEqual([
      'setup model=scripted',
      'teardown final_output',
      'setup model=scripted',
      'teardown error',
    ]);
  });
});

describe('agent config', () => {
  it('rejects invalid config at construction with UserError', () => {
    expect(() => new Agent({ name: '' })).toThrow(UserError);
    expect(() => new Agent({ name: 'x', tools: 'nope' as any })).toThrow(
      /`tools` must be an array/,
    );
    expect(() => new Agent({ name: 'x', tools: [{ name: 'fake' } as any] })).toThrow(
      /created with tool\(\)/,
    );
    expect(() => new Agent({ name: 'x', model: 42 as any })).toThrow(/`model` must be/);
    expect(() => new Agent({ name: 'x', outputType: z.string() as any })).toThrow(
      /outputType must describe a JSON object/,
    );
  });
  it('clone overrides fields and keeps the rest', () => {
    const a = new Agent({ name: 'a', instructions: 'i' });
    const b = a.clone({ name: 'b' });
    expect(b.name).toBe('b');
    expect(b.instructions).toBe('i');
  });
});
