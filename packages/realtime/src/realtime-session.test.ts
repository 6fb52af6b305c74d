/**
 * RealtimeSession over the OpenAI transport against a local Realtime API server: connecting,
 * tool calls, approvals, handoffs (session.update in place), errors.
 */
import { handoff, setTraceProcessors, tool } from '@baton/kernel';
import { RecordingTraceProcessor } from '@baton/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Harness, sent, startHarness } from './__tests__/harness.js';
import { RealtimeAgent } from './realtime-agent.js';
import { RealtimeServerError } from './realtime-errors.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ORDERS: Record<string, string> = { '#42': 'delivered, reported damaged' };

function lookupTool(runs: string[] = []) {
  return tool({
    name: 'lookup_order',
    description: 'Look up an order by id.',
    parameters: z.object({ orderId: z.string() }),
    execute: ({ orderId }) => {
      runs.push(orderId);
      return { orderId, status: ORDERS[orderId] ?? 'unknown' };
    },
  });
}

describe('RealtimeSession: connect', () => {
  it('opens the socket with the key and sends the agent as a GA session.update', async () => {
    const agent = new RealtimeAgent({
      name: 'Desk',
      instructions: (ctx) => `Help ${(ctx.context as { user: string }).user}.`,
      tools: [lookupTool()],
      voice: 'marin',
    });
    h = await startHarness(agent, {
      context: { user: 'Ada' },
      config: {
        model: 'gpt-realtime',
        inputTranscription: { model: 'gpt-4o-mini-transcribe' },
        turnDetection: { type: 'semantic_vad', eagerness: 'high' },
      },
    });
    expect(h.conn.headers.authorization).toBe('Bearer sk-test-key');
    const [update] = sent(h.conn, 'session.update');
    expect(update.event_id).toMatch(/^evt_/);
    expect(update.session).toEqual({
      type: 'realtime',
      model: 'gpt-realtime',
      instructions: 'Help Ada.',
      tools: [
        {
          type: 'function',
          name: 'lookup_order',
          description: 'Look up an order by id.',
          parameters: expect.objectContaining({ required: ['orderId'] }),
        },
      ],
      audio: {
        input: {
          transcription: { model: 'gpt-4o-mini-transcribe' },
          turn_detection: { type: 'semantic_vad', eagerness: 'high' },
        },
        output: { voice: 'marin' },
      },
    });
    expect(h.session.status).toBe('connected');
    expect(h.timeline()).toEqual(['connection_status', 'connection_status']);
  });

  it('a refused upgrade rejects connect() with the HTTP status and leaves the session disconnected', async () => {
    const { startRealtimeFixtureServer } = await import('./__tests__/realtime-fixture-server.js');
    const { createOpenAIRealtimeTransport } = await import('./openai/openai-realtime-transport.js');
    const { RealtimeSession } = await import('./realtime-session.js');
    const server = await startRealtimeFixtureServer();
    try {
      server.refuseNext(401);
      const session = new RealtimeSession(new RealtimeAgent({ name: 'A' }), {
        transport: createOpenAIRealtimeTransport({ url: server.url, apiKey: 'bad' }),
      });
      const error = await session.connect().catch((e) => e);
      expect(error).toMatchObject({ name: 'RealtimeConnectionError', statusCode: 401 });
      expect(error.message).toContain('Check the API key');
      expect(session.status).toBe('disconnected');
      expect(() => session.sendMessage('hi')).toThrow(/not connected; call connect\(\)/);
    } finally {
      await server.close();
    }
  });
});

describe('RealtimeSession: audio in', () => {
  it('appends audio as base64 PCM; with turn detection off, commit ends the turn and asks for a response', async () => {
    h = await startHarness(new RealtimeAgent({ name: 'Desk' }), {
      config: { turnDetection: null },
    });
    expect(sent(h.conn, 'session.update')[0].session.audio.input.turn_detection).toBeNull();
    h.session.sendAudio(new Uint8Array([0, 1, 2, 3]));
    h.session.sendAudio(new Uint8Array([4, 5]), { commit: true });
    await h.conn.next('response.create');
    expect(h.conn.received.slice(1).map((e) => e.type)).toEqual([
      'input_audio_buffer.append',
      'input_audio_buffer.append',
      'input_audio_buffer.commit',
      'response.create',
    ]);
    expect(sent(h.conn, 'input_audio_buffer.append').map((e) => e.audio)).toEqual([
      'AAECAw==',
      'BAU=',
    ]);
    // The user's spoken turn joins the history once transcribed.
    const userItem = h.conn.items.find((i) => i.type === 'message' && i.role === 'user')!;
    await h.waitFor('agent_end');
    h.conn.send({
      type: 'conversation.item.input_audio_transcription.completed',
      item_id: userItem.id!,
      content_index: 0,
      transcript: 'Hello there',
      usage: { type: 'duration', seconds: 1 },
    });
    await h.waitFor('history_updated', (e) =>
      e.history.some((i) => JSON.stringify(i).includes('Hello there')),
    );
    expect(h.session.history.map((i) => i.type === 'message' && i.role)).toEqual([
      'user',
      'assistant',
    ]);
    expect(h.session.history[0]).toMatchObject({
      id: userItem.id,
      role: 'user',
      content: [{ type: 'input_text', text: 'Hello there' }],
      provider_data: { realtime: { audio: true } },
    });
  });
});

describe('RealtimeSession: tools', () => {
  it('runs a tool call round trip: output sent, one response.create, history as kernel items', async () => {
    const runs: string[] = [];
    h = await startHarness(new RealtimeAgent({ name: 'Desk', tools: [lookupTool(runs)] }));
    h.server.script(
      {
        say: 'Let me check.',
        calls: [{ name: 'lookup_order', arguments: { orderId: '#42' }, callId: 'call_a' }],
      },
      { say: 'Order 42 was delivered and reported damaged.' },
    );
    h.session.sendMessage('Where is order 42?');
    const output = await h.conn.next(
      'conversation.item.create',
      (e) => e.item.type === 'function_call_output',
    );
    expect(output.item).toMatchObject({
      type: 'function_call_output',
      call_id: 'call_a',
      output: '{"orderId":"#42","status":"delivered, reported damaged"}',
    });
    await h.waitFor(
      'agent_end',
      (e) => e.responseId !== h!.events.find((x) => x.type === 'agent_end')!.responseId,
    );
    expect(runs).toEqual(['#42']);
    expect(sent(h.conn, 'response.create')).toHaveLength(2);
    const toolEvents = h.events.filter((e) => e.type === 'tool_start' || e.type === 'tool_end');
    expect(toolEvents.map((e) => e.type)).toEqual(['tool_start', 'tool_end']);
    expect(toolEvents[1]).toMatchObject({ toolName: 'lookup_order', output: { orderId: '#42' } });
    expect(h.session.history.map(summary)).toEqual([
      'user: Where is order 42?',
      'assistant: Let me check.',
      'call lookup_order {"orderId":"#42"}',
      'output call_a',
      'assistant: Order 42 was delivered and reported damaged.',
    ]);
    expect(h.session.usage).toMatchObject({
      requests: 2,
      inputTokens: 40,
      outputTokens: 20,
      cachedInputTokens: 10,
    });
  });

  it('answers every call of a response before asking for exactly one new response', async () => {
    const runs: string[] = [];
    h = await startHarness(new RealtimeAgent({ name: 'Desk', tools: [lookupTool(runs)] }));
    h.server.script(
      {
        calls: [
          { name: 'lookup_order', arguments: { orderId: '#42' }, callId: 'c1' },
          { name: 'lookup_order', arguments: { orderId: '#7' }, callId: 'c2' },
          { name: 'lookup_order', arguments: '{"orderId": 42}', callId: 'c3' },
        ],
      },
      { say: 'Done.' },
    );
    h.session.sendMessage('Check 42 and 7.');
    await h.waitFor(
      'agent_end',
      (e) => h!.events.filter((x) => x.type === 'agent_end').indexOf(e) === 1,
    );
    const kinds = h.conn.received
      .filter((e) => e.type === 'response.create' || e.item?.type === 'function_call_output')
      .map((e) => (e.type === 'response.create' ? 'create' : e.item.call_id));
    expect(kinds.slice(0, 1)).toEqual(['create']);
    expect(kinds.slice(1, 4).sort()).toEqual(['c1', 'c2', 'c3']);
    expect(kinds.slice(4)).toEqual(['create']);
    expect(runs.sort()).toEqual(['#42', '#7']);
    const invalid = h.conn.received.find((e) => e.item?.call_id === 'c3');
    expect(invalid!.item.output).toContain('Invalid arguments for tool "lookup_order"');
    // No error event from the server: every call id answered once, no overlapping response.create.
    expect(h.events.filter((e) => e.type === 'error')).toEqual([]);
  });

  it('does not run the calls of a cancelled response', async () => {
    const runs: string[] = [];
    h = await startHarness(new RealtimeAgent({ name: 'Desk', tools: [lookupTool(runs)] }));
    h.server.script({
      say: 'One moment while I look.',
      pauseAfterChunks: 2,
      calls: [{ name: 'lookup_order', arguments: { orderId: '#42' } }],
    });
    h.session.sendMessage('Order 42?');
    await h.waitFor('audio');
    h.session.interrupt();
    const end = await h.waitFor('agent_end');
    expect(end.status).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 50));
    expect(runs).toEqual([]);
    expect(h.conn.received.some((e) => e.item?.type === 'function_call_output')).toBe(false);
  });

  it('a needsApproval tool waits for approve(), then runs once; reject() answers with the message', async () => {
    const refunds: string[] = [];
    const refund = tool({
      name: 'issue_refund',
      description: 'Refund an order.',
      parameters: z.object({ orderId: z.string() }),
      needsApproval: true,
      execute: ({ orderId }) => {
        refunds.push(orderId);
        return `Refunded ${orderId}.`;
      },
    });
    h = await startHarness(new RealtimeAgent({ name: 'Desk', tools: [refund] }));
    h.server.script(
      { calls: [{ name: 'issue_refund', arguments: { orderId: '#42' }, callId: 'r1' }] },
      { say: 'Your refund is on its way.' },
      { calls: [{ name: 'issue_refund', arguments: { orderId: '#7' }, callId: 'r2' }] },
      { say: 'Sorry, I cannot refund that.' },
    );
    h.session.sendMessage('Refund 42 please.');
    const asked = await h.waitFor('tool_approval_requested');
    expect(asked.item).toMatchObject({
      tool_name: 'issue_refund',
      call_id: 'r1',
      arguments: '{"orderId":"#42"}',
    });
    expect(h.session.pendingApprovals).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 30));
    expect(refunds).toEqual([]);
    expect(sent(h.conn, 'response.create')).toHaveLength(1);
    await h.session.approve(asked.item);
    const out = await h.conn.next('conversation.item.create', (e) => e.item.call_id === 'r1');
    expect(out.item.output).toBe('Refunded #42.');
    expect(refunds).toEqual(['#42']);
    await h.conn.next('response.create', () => true);
    await expect(h.session.approve(asked.item)).rejects.toThrow(/not waiting for a decision/);

    await h.waitFor(
      'agent_end',
      (e) => h!.events.filter((x) => x.type === 'agent_end').indexOf(e) === 1,
    );
    h.session.sendMessage('And refund 7.');
    const second = await h.waitFor('tool_approval_requested', (e) => e.item.call_id === 'r2');
    await h.session.reject(second.item, { message: 'A manager must approve refunds for #7.' });
    const rejected = await h.conn.next('conversation.item.create', (e) => e.item.call_id === 'r2');
    expect(rejected.item.output).toBe('A manager must approve refunds for #7.');
    expect(refunds).toEqual(['#42']);
    expect(h.session.pendingApprovals).toEqual([]);
  });

  it('an unknown tool and a throwing tool get model-visible error outputs; the session goes on', async () => {
    const boom = tool({
      name: 'boom',
      description: '',
      execute: () => {
        throw new Error('internal secret');
      },
    });
    h = await startHarness(new RealtimeAgent({ name: 'Desk', tools: [boom] }));
    h.server.script(
      {
        calls: [
          { name: 'boom', arguments: {}, callId: 'b1' },
          { name: 'nope', arguments: {}, callId: 'n1' },
        ],
      },
      { say: 'Sorry.' },
    );
    h.session.sendMessage('Go.');
    const b = await h.conn.next('conversation.item.create', (e) => e.item.call_id === 'b1');
    const n = await h.conn.next('conversation.item.create', (e) => e.item.call_id === 'n1');
    expect(b.item.output).toBe('An error occurred while running the tool. Please try again.');
    expect(JSON.stringify(h.conn.received)).not.toContain('internal secret');
    expect(n.item.output).toContain('"nope"');
    await h.conn.next('response.create', (e) => e !== sent(h!.conn, 'response.create')[0]);
  });

  it('surfaces a server error event as a RealtimeServerError with its fields', async () => {
    h = await startHarness(new RealtimeAgent({ name: 'Desk' }));
    h.conn.send({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        code: 'invalid_value',
        message: 'Bad voice.',
        param: 'session.audio.output.voice',
        event_id: 'evt_1',
      },
    });
    const { error } = await h.waitFor('error');
    expect(RealtimeServerError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'invalid_value',
      param: 'session.audio.output.voice',
      eventId: 'evt_1',
    });
    expect(error.message).toContain('Bad voice.');
  });
});

describe('RealtimeSession: handoffs', () => {
  it('swaps instructions and tools in place (session.update before the output and response.create)', async () => {
    const runs: string[] = [];
    const seen: string[] = [];
    const refundAgent = new RealtimeAgent({
      name: 'Refund Agent',
      instructions: 'You handle refunds.',
      handoffDescription: 'Refunds and damaged orders.',
      tools: [lookupTool(runs)],
      voice: 'cedar',
    });
    const triage = new RealtimeAgent({
      name: 'Triage Agent',
      instructions: 'Greet and route.',
      handoffs: [
        handoff(refundAgent, {
          inputType: z.object({ reason: z.string() }),
          onHandoff: (_ctx, input) => void seen.push(`onHandoff ${input.reason}`),
        }),
      ],
    });
    h = await startHarness(triage, {
      hooks: { onHandoff: (_c, from, to) => void seen.push(`hook ${from.name}->${to.name}`) },
    });
    expect(
      sent(h.conn, 'session.update')[0].session.tools.map((t: { name: string }) => t.name),
    ).toEqual(['transfer_to_refund_agent']);
    h.server.script(
      {
        say: 'Passing you to refunds.',
        calls: [
          { name: 'transfer_to_refund_agent', arguments: { reason: 'damaged mug' }, callId: 'h1' },
          { name: 'transfer_to_refund_agent', arguments: { reason: 'again' }, callId: 'h2' },
        ],
      },
      { calls: [{ name: 'lookup_order', arguments: { orderId: '#42' }, callId: 'l1' }] },
      { say: 'I see the damaged mug.' },
    );
    h.session.sendMessage('My mug arrived broken.');
    const ev = await h.waitFor('handoff');
    expect([ev.from.name, ev.to.name]).toEqual(['Triage Agent', 'Refund Agent']);
    await h.conn.next('conversation.item.create', (e) => e.item.call_id === 'l1');
    const firstCreate = h.conn.received.indexOf(sent(h.conn, 'response.create')[0]);
    const order = h.conn.received
      .slice(firstCreate + 1)
      .filter((e) =>
        ['session.update', 'response.create', 'conversation.item.create'].includes(e.type),
      )
      .map((e) => (e.type === 'conversation.item.create' ? `output ${e.item.call_id}` : e.type));
    const upd = sent(h.conn, 'session.update')[1].session;
    expect(upd.instructions).toBe('You handle refunds.');
    expect(upd.tools.map((t: { name: string }) => t.name)).toEqual(['lookup_order']);
    // The voice is fixed once the session spoke: it is not sent again.
    expect(upd.audio?.output?.voice).toBeUndefined();
    expect(order.slice(0, 1)).toEqual(['output h2']);
    expect(order.slice(1, 4)).toEqual(['session.update', 'output h1', 'response.create']);
    const handoffOut = h.conn.received.find((e) => e.item?.call_id === 'h1');
    expect(handoffOut!.item.output).toBe('{"assistant":"Refund Agent"}');
    const ignored = h.conn.received.find((e) => e.item?.call_id === 'h2');
    expect(ignored!.item.output).toBe('Multiple handoffs detected, ignoring this one.');
    expect(runs).toEqual(['#42']);
    expect(h.session.currentAgent.name).toBe('Refund Agent');
    expect(seen).toEqual(['onHandoff damaged mug', 'hook Triage Agent->Refund Agent']);
    const tool = h.events.find((e) => e.type === 'tool_end');
    expect(tool && 'agent' in tool && tool.agent.name).toBe('Refund Agent');
  });

  it('a handoff waits for an approval pending in the same response', async () => {
    const target = new RealtimeAgent({ name: 'Billing', instructions: 'Billing.' });
    const gated = tool({
      name: 'note',
      description: '',
      needsApproval: true,
      execute: () => 'noted',
    });
    h = await startHarness(
      new RealtimeAgent({ name: 'Front', tools: [gated], handoffs: [target] }),
    );
    h.server.script(
      {
        calls: [
          { name: 'note', arguments: {}, callId: 'n1' },
          { name: 'transfer_to_billing', arguments: {}, callId: 'h1' },
        ],
      },
      { say: 'Billing here.' },
    );
    h.session.sendMessage('Bill me.');
    const asked = await h.waitFor('tool_approval_requested');
    await new Promise((r) => setTimeout(r, 30));
    expect(h.events.some((e) => e.type === 'handoff')).toBe(false);
    expect(sent(h.conn, 'session.update')).toHaveLength(1);
    await h.session.approve(asked.item);
    await h.waitFor('handoff');
    await h.conn.next('response.create', (e) => e !== sent(h!.conn, 'response.create')[0]);
    expect(sent(h.conn, 'session.update')[1].session.instructions).toBe('Billing.');
  });
});

describe('RealtimeSession: tracing', () => {
  it('one trace per session: realtime_session > function and handoff spans', async () => {
    const recorder = new RecordingTraceProcessor();
    setTraceProcessors([recorder]);
    try {
      const refunds = new RealtimeAgent({ name: 'Refunds', tools: [lookupTool()] });
      h = await startHarness(new RealtimeAgent({ name: 'Front', handoffs: [refunds] }), {
        workflowName: 'Phone desk',
        groupId: 'call-7',
      });
      h.server.script(
        { calls: [{ name: 'transfer_to_refunds', arguments: {} }] },
        { calls: [{ name: 'lookup_order', arguments: { orderId: '#42' } }] },
        { say: 'Found it.' },
      );
      h.session.sendMessage('Refund please.');
      await h.waitFor('tool_end');
      await h.session.close();
      expect(recorder.traces).toMatchObject([{ name: 'Phone desk', groupId: 'call-7' }]);
      expect(recorder.tree()).toEqual([
        'realtime_session:',
        '  handoff:Front->Refunds',
        '  function:lookup_order',
      ]);
      expect(recorder.ended.find((s) => s.data.kind === 'realtime_session')?.data).toMatchObject({
        agentName: 'Front',
        provider: 'openai',
      });
      expect(recorder.events.at(-1)).toMatch(/^trace_end:/);
    } finally {
      setTraceProcessors([]);
    }
  });
});

function summary(item: { type: string } & Record<string, any>): string {
  if (item.type === 'message')
    return `${item.role}: ${item.content.map((p: { text?: string }) => p.text).join('')}`;
  if (item.type === 'function_call') return `call ${item.name} ${item.arguments}`;
  if (item.type === 'function_call_output') return `output ${item.call_id}`;
  return item.type;
}
