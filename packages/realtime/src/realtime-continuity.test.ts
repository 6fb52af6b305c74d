/**
 * The conversation survives: a dropped connection (an error event; with `reconnect`, a new
 * connection seeded with the history, nothing lost or duplicated), and a realtime conversation
 * continues as a text run with `run(agent, session.history)` and back into a realtime session.
 */
import { type Item, run, tool } from '@baton/kernel';
import { msg, ScriptedModel } from '@baton/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Harness, sent, startHarness } from './__tests__/harness.js';
import { createManualPlaybackTracker } from './audio-playback.js';
import { RealtimeAgent } from './realtime-agent.js';
import { RealtimeConnectionError } from './realtime-errors.js';
import type { RealtimeSessionEvent } from './realtime-events.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const lookup = tool({
  name: 'lookup_order',
  description: 'Look up an order.',
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => `Order ${orderId}: delivered, reported damaged.`,
});

async function talk(harness: Harness) {
  harness.server.script(
    { calls: [{ name: 'lookup_order', arguments: { orderId: '#42' }, callId: 'call_l1' }] },
    { say: 'Order 42 arrived damaged.' },
  );
  harness.session.sendMessage('What happened to order 42?');
  await harness.waitFor(
    'agent_end',
    (e) => harness.events.filter((x) => x.type === 'agent_end').indexOf(e) === 1,
  );
}

describe('RealtimeSession: a dropped connection', () => {
  it('without reconnect: an error event with the close code, the session ends, sends throw', async () => {
    h = await startHarness(new RealtimeAgent({ name: 'Desk' }));
    const iterated: string[] = [];
    const iterating = (async () => {
      for await (const e of h!.session) iterated.push(e.type);
    })();
    h.conn.drop();
    const { error } = await h.waitFor('error');
    expect(RealtimeConnectionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ closeCode: 1006, willReconnect: false });
    await iterating; // the iterator ends with the session
    expect(iterated).toContain('error');
    expect(h.session.status).toBe('disconnected');
    expect(() => h!.session.sendMessage('hello?')).toThrow(RealtimeConnectionError);
  });

  it('with reconnect: a new connection gets the session config and the history, once', async () => {
    h = await startHarness(
      new RealtimeAgent({ name: 'Desk', instructions: 'Be brief.', tools: [lookup] }),
      {
        reconnect: { maxAttempts: 3, backoff: { initialDelayMs: 5, jitter: 0 } },
      },
    );
    await talk(h);
    const before = h.session.history;
    h.conn.drop();
    const second = await h.server.connection(1);
    await second.next('session.update');
    const errors = h.events.filter(
      (e): e is Extract<RealtimeSessionEvent, { type: 'error' }> => e.type === 'error',
    );
    expect(errors[0].error).toMatchObject({ name: 'RealtimeConnectionError', willReconnect: true });
    expect(sent(second, 'session.update')[0].session.instructions).toBe('Be brief.');
    await second.next('conversation.item.create', (e) => e.item.role === 'assistant');
    expect(
      sent(second, 'conversation.item.create').map(
        (e) => e.item.type + (e.item.role ? `:${e.item.role}` : ''),
      ),
    ).toEqual(['message:user', 'function_call', 'function_call_output', 'message:assistant']);
    expect(sent(second, 'conversation.item.create')[3].item.content).toEqual([
      { type: 'output_text', text: 'Order 42 arrived damaged.' },
    ]);
    // The echoes of the seeded items merge into the history: nothing duplicated.
    await new Promise((r) => setTimeout(r, 30));
    expect(h.session.history).toEqual(before);
    // The conversation goes on over the new connection.
    h.server.script({ say: 'You are welcome.' });
    h.session.sendMessage('Thanks.');
    await second.next('response.create');
    await h.waitFor(
      'agent_end',
      (e) => h!.events.filter((x) => x.type === 'agent_end').indexOf(e) === 2,
    );
    expect(h.session.history).toHaveLength(before.length + 2);
  });

  it('reconnect attempts that fail end the session with an error', async () => {
    h = await startHarness(new RealtimeAgent({ name: 'Desk' }), {
      reconnect: { maxAttempts: 2, backoff: { initialDelayMs: 5, jitter: 0 } },
    });
    h.server.refuseNext(503, 2);
    const closing = h.waitFor('connection_status', (e) => e.status === 'disconnected');
    h.conn.drop();
    await closing;
    const errors = h.events.filter(
      (e): e is Extract<RealtimeSessionEvent, { type: 'error' }> => e.type === 'error',
    );
    expect(errors.map((e) => (e.error as RealtimeConnectionError).willReconnect)).toEqual([
      true,
      true,
      false,
    ]);
    expect(errors[1].error.message).toContain('HTTP 503');
  });

  it('a tool still running during the drop sends its output on the new connection', async () => {
    let finish!: (v: string) => void;
    const slow = tool({
      name: 'slow',
      description: '',
      execute: () => new Promise<string>((r) => (finish = r)),
    });
    h = await startHarness(new RealtimeAgent({ name: 'Desk', tools: [slow] }), {
      reconnect: { maxAttempts: 2, backoff: { initialDelayMs: 5, jitter: 0 } },
    });
    h.server.script(
      { calls: [{ name: 'slow', arguments: {}, callId: 'call_s' }] },
      { say: 'Done.' },
    );
    h.session.sendMessage('Do the slow thing.');
    await h.waitFor('tool_start');
    h.conn.drop();
    const second = await h.server.connection(1);
    await second.next('conversation.item.create', (e) => e.item.type === 'function_call');
    finish('finished');
    const out = await second.next(
      'conversation.item.create',
      (e) => e.item.type === 'function_call_output',
    );
    expect(out.item).toMatchObject({ call_id: 'call_s', output: 'finished' });
    await second.next('response.create');
  });
});

describe('RealtimeSession: continuing as a text run and back', () => {
  it('session.history feeds run(); the run result seeds a new realtime session', async () => {
    const agent = new RealtimeAgent({
      name: 'Desk',
      instructions: 'Help with orders.',
      tools: [lookup],
    });
    h = await startHarness(agent, { playbackTracker: createManualPlaybackTracker() });
    await talk(h);
    const history = h.session.history;
    await h.close();
    h = undefined;

    let seen: Item[] = [];
    const textModel = new ScriptedModel([
      (req) => {
        seen = req.input;
        return [msg('A refund for order 42 is possible.')];
      },
    ]);
    const result = await run(
      agent,
      [...history, { type: 'message', role: 'user', content: 'Can I get a refund?' }],
      {
        model: textModel,
      },
    );
    expect(result.finalOutput).toBe('A refund for order 42 is possible.');
    expect(seen.map((i) => i.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
      'message',
      'message',
    ]);
    expect(seen[2]).toMatchObject({
      call_id: 'call_l1',
      output: 'Order #42: delivered, reported damaged.',
    });

    // … and back: the text run's history seeds a new realtime conversation.
    h = await startHarness(agent, { history: result.history });
    await h.conn.next('conversation.item.create', (e) =>
      JSON.stringify(e).includes('A refund for order 42'),
    );
    const created = sent(h.conn, 'conversation.item.create');
    expect(created.map((e) => e.item.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
      'message',
      'message',
      'message',
    ]);
    expect(created.at(-1)!.item).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'A refund for order 42 is possible.' }],
    });
    expect(created.every((e) => typeof e.item.id === 'string' && e.item.id.length <= 32)).toBe(
      true,
    );
    await new Promise((r) => setTimeout(r, 30));
    expect(h.session.history).toHaveLength(6);
    expect(h.events.some((e) => e.type === 'error')).toBe(false);
    h.server.script({ say: 'Shall I start the refund?' });
    h.session.sendMessage('Yes please.');
    await h.waitFor('agent_end');
    expect(h.session.history.at(-1)).toMatchObject({
      role: 'assistant',
      content: [{ text: 'Shall I start the refund?' }],
    });
  });
});
