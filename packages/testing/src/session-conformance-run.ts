/**
 * The session conformance case that drives real runs of the kernel through the session: two runs
 * of one conversation (history read before the first model call, new items appended), the second
 * paused for an approval, serialized, and resumed. Nothing may be lost or stored twice.
 */
import { Agent, type Item, RunState, run, type Session, tool } from '@baton/kernel';
import { expect, it } from 'vitest';
import { fc, msg } from './builders.js';
import { ScriptedModel } from './scripted-model.js';

const shape = (items: Item[]) =>
  items.map((i) =>
    i.type === 'message'
      ? `${i.role}:${typeof i.content === 'string' ? i.content : i.content.map((p) => ('text' in p ? p.text : '')).join('')}`
      : i.type === 'function_call' || i.type === 'function_call_output'
        ? `${i.type}:${i.call_id}`
        : i.type,
  );

/** Declares the run case (inside the suite's `describe`). */
export function declareRunCase(
  open: (label: string) => Promise<Session>,
  options: { timeout: number },
): void {
  it('under real runs: history read once, a paused run resumed from JSON, nothing lost or doubled', {
    timeout: options.timeout,
  }, async () => {
    const session = await open('run');
    const model = new ScriptedModel([
      [fc('lookup_order', { order: '42' }, 'call_lookup')],
      [msg('Order 42: a mug, delivered damaged.')],
      [fc('refund', { order: '42' }, 'call_refund')],
      [msg('Refunded order 42.')],
    ]);
    let refunds = 0;
    const agent = new Agent({
      name: 'Desk',
      model,
      tools: [
        tool({ name: 'lookup_order', description: '', execute: () => 'mug, damaged' }),
        tool({
          name: 'refund',
          description: '',
          needsApproval: true,
          execute: () => `refund #${++refunds}`,
        }),
      ],
    });
    const first = await run(agent, 'Where is order 42?', { session });
    expect(first.finalOutput).toBe('Order 42: a mug, delivered damaged.');
    const afterFirst = [
      'user:Where is order 42?',
      'function_call:call_lookup',
      'function_call_output:call_lookup',
      'assistant:Order 42: a mug, delivered damaged.',
    ];
    expect(shape(await session.getItems())).toEqual(afterFirst);
    const paused = await run(agent, 'Refund it.', { session });
    expect(paused.interruptions.map((i) => i.call_id)).toEqual(['call_refund']);
    // The second run saw the stored conversation exactly once, then its own input.
    expect(shape(model.requests[2].input)).toEqual([...afterFirst, 'user:Refund it.']);
    expect(shape(await session.getItems())).toEqual([
      ...afterFirst,
      'user:Refund it.',
      'function_call:call_refund',
    ]);
    const state = await RunState.fromString(agent, paused.state.toString());
    state.approve(state.getInterruptions()[0]);
    const done = await run(agent, state, { session });
    expect(done.finalOutput).toBe('Refunded order 42.');
    expect(refunds).toBe(1);
    expect(shape(await session.getItems())).toEqual([
      ...afterFirst,
      'user:Refund it.',
      'function_call:call_refund',
      'function_call_output:call_refund',
      'assistant:Refunded order 42.',
    ]);
    expect(shape(await session.getItems(2))).toEqual([
      'function_call_output:call_refund',
      'assistant:Refunded order 42.',
    ]);
  });
}
