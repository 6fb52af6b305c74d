import { msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import { UserError } from '../errors/errors.js';
import type { Item } from '../items/item-types.js';
import { createProviderRegistry } from '../model/provider-registry.js';
import { MemorySession } from '../session/memory-session.js';
import { Runner, run } from './run.js';

describe('run options', () => {
  it('routes prefixed model names through a provider registry; unknown prefixes are a UserError', async () => {
    const a = new ScriptedModel([[msg('from a')]], { modelId: 'a' });
    const b = new ScriptedModel([[msg('from b')]], { modelId: 'b' });
    const asked: (string | undefined)[] = [];
    const registry = createProviderRegistry({
      alpha: {
        getModel: (name) => {
          asked.push(name);
          return a;
        },
      },
      beta: {
        getModel: (name) => {
          asked.push(name);
          return b;
        },
      },
    });
    expect(
      (await run(new Agent({ name: 'x', model: 'beta:big-1' }), 'hi', { modelProvider: registry }))
        .finalOutput,
    ).toBe('from b');
    expect(asked).toEqual(['big-1']);
    await expect(
      run(new Agent({ name: 'x', model: 'gamma:m' }), 'hi', { modelProvider: registry }),
    ).rejects.toThrow(/No model provider registered for prefix "gamma"/);
    await expect(run(new Agent({ name: 'x', model: 'm' }), 'hi')).rejects.toBeInstanceOf(UserError);
  });

  it('callModelInputFilter rewrites what the model sees, not the transcript', async () => {
    const m = new ScriptedModel([[msg('ok')]]);
    const r = await run(new Agent({ name: 'x', instructions: 'base', model: m }), 'secret 1234', {
      callModelInputFilter: ({ input, systemInstructions }) => ({
        systemInstructions: `${systemInstructions} (filtered)`,
        input: input.map((i) =>
          i.type === 'message' ? { ...i, content: 'redacted' } : i,
        ) as Item[],
      }),
    });
    expect(m.requests[0].systemInstructions).toBe('base (filtered)');
    expect(m.requests[0].input).toEqual([{ type: 'message', role: 'user', content: 'redacted' }]);
    expect(r.history[0]).toEqual({ type: 'message', role: 'user', content: 'secret 1234' });
  });

  it('a Runner holds default options; maxTurns must be positive', async () => {
    const runner = new Runner({ context: { tenant: 'acme' }, maxTurns: 3 });
    const seen: unknown[] = [];
    const m = new ScriptedModel([[msg('ok')]]);
    const agent = new Agent({
      name: 'x',
      instructions: (ctx) => {
        seen.push(ctx.context);
        return 'i';
      },
      model: m,
    });
    const r = await runner.run(agent, 'hi');
    expect(seen).toEqual([{ tenant: 'acme' }]);
    expect(r.state.maxTurns).toBe(3);
    await expect(run(agent, 'hi', { maxTurns: 0 })).rejects.toThrow(
      /maxTurns must be a whole number of at least 1/,
    );
  });
});

describe('sessions in the loop', () => {
  it('prepends history (respecting the limit), stores the new input first, appends each turn once', async () => {
    const session = new MemorySession({
      initialItems: [
        { type: 'message', role: 'user', content: 'old 1' },
        { type: 'function_call', call_id: 'x', name: 'gone', arguments: '{}' },
        { type: 'function_call_output', call_id: 'x', output: 'o' },
        { type: 'message', role: 'assistant', content: 'old 2' },
      ],
    });
    const m = new ScriptedModel([[msg('new answer')]]);
    await run(new Agent({ name: 'x', model: m }), 'new question', {
      session,
      sessionSettings: { limit: 2 },
    });
    // the window [output x, assistant old 2] starts with an orphan output: trimmed to a clean boundary
    expect(m.requests[0].input).toEqual([
      { type: 'message', role: 'assistant', content: 'old 2' },
      { type: 'message', role: 'user', content: 'new question' },
    ]);
    const items = await session.getItems();
    expect(items.slice(4).map((i) => (i as any).content?.[0]?.text ?? (i as any).content)).toEqual([
      'new question',
      'new answer',
    ]);
  });

  it('sessionInputCallback may rewrite what is sent; only the new input is stored', async () => {
    const session = new MemorySession({
      initialItems: [{ type: 'message', role: 'user', content: 'old' }],
    });
    const m = new ScriptedModel([[msg('ok')]]);
    await run(new Agent({ name: 'x', model: m }), 'new', {
      session,
      sessionInputCallback: (history, items) => [...items, ...history],
    });
    expect(m.requests[0].input.map((i: any) => i.content)).toEqual(['new', 'old']);
    expect((await session.getItems()).map((i: any) => i.content?.[0]?.text ?? i.content)).toEqual([
      'old',
      'new',
      'ok',
    ]);
  });
});
