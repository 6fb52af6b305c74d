/**
 * Streaming runs as reported in the peers' trackers: event order, errors after partial output,
 * a failing session write, cancellation mid-stream and resuming after it.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import { ModelCallError, SessionError } from '../errors/errors.js';
import type { Item } from '../items/item-types.js';
import { run } from '../loop/run.js';
import type { RunStreamEvent } from '../loop/run-events.js';
import { MemorySession } from '../session/memory-session.js';
import { tool } from '../tool/tool.js';

const label = (e: RunStreamEvent): string =>
  e.type === 'raw_model_stream_event'
    ? `raw:${e.data.type}`
    : e.type === 'run_item_stream_event'
      ? `item:${e.name}`
      : e.type;

async function drain(result: AsyncIterable<RunStreamEvent>) {
  const events: RunStreamEvent[] = [];
  let error: unknown;
  try {
    for await (const e of result) events.push(e);
  } catch (e) {
    error = e;
  }
  return { events, error };
}

describe('peer streaming reports', () => {
  it('openai-agents-python streaming docs: a tool turn streams raw events, then tool_called, tool_output, then the next response and message_output_created', async () => {
    const t = tool({ name: 'lookup', description: '', execute: () => 'found' });
    const agent = new Agent({
      name: 'A',
      tools: [t],
      model: new ScriptedModel([[fc('lookup', { q: 'x' }, 'c1')], [msg('done')]]),
    });
    const result = await run(agent, 'x', { stream: true });
    const { events, error } = await drain(result);
    await result.completed;
    expect(error).toBeUndefined();
    const compact = events.map(label).filter((l) => !l.endsWith('_delta'));
    expect(compact).toEqual([
      'agent_updated_stream_event',
      'raw:response_started',
      'raw:output_item_added',
      'raw:output_item_done',
      'raw:response_done',
      'item:tool_called',
      'item:tool_output',
      'raw:response_started',
      'raw:output_item_added',
      'raw:output_item_done',
      'raw:response_done',
      'item:message_output_created',
    ]);
    expect(result.finalOutput).toBe('done');
  });

  it('openai-agents-js, vercel/ai: a model error after partial text rejects `completed` and the iteration with that error; nothing partial becomes the final output', async () => {
    const boom = new ModelCallError('stream broke', { retryable: false });
    const session = new MemorySession();
    const agent = new Agent({
      name: 'A',
      model: new ScriptedModel([{ error: boom, afterDeltas: 2 }]),
    });
    const result = await run(agent, 'x', { stream: true, session });
    const { events, error } = await drain(result);
    await expect(result.completed).rejects.toBe(boom);
    expect(error).toBe(boom);
    expect(events.filter((e) => label(e) === 'raw:text_delta')).toHaveLength(2);
    expect(result.finalOutput).toBeUndefined();
    expect(result.newItems).toEqual([]);
    // The partial message is not stored; the user input is (the turn can be retried).
    const stored = await session.getItems();
    expect(stored.some((i) => i.type === 'message' && i.role === 'assistant')).toBe(false);
  });

  it('openai-agents-python#2130: a session write that throws ends the stream with that error instead of hanging', async () => {
    class BrokenSession extends MemorySession {
      override async addItems(_items: Item[]): Promise<void> {
        throw new Error('disk full');
      }
    }
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[msg('hi')]]) });
    const result = await run(agent, 'x', { stream: true, session: new BrokenSession() });
    const outcome = await Promise.race([
      drain(result).then((d) => ({ ...d, hung: false })),
      new Promise<{ hung: true }>((r) => setTimeout(() => r({ hung: true }), 2000)),
    ]);
    expect(outcome.hung).toBe(false);
    const error = (outcome as { error: unknown }).error;
    expect(error).toBeInstanceOf(SessionError);
    expect(((error as SessionError).cause as Error).message).toBe('disk full');
    await expect(result.completed).rejects.toBe(error);
  });

  it('openai-agents-js#1114: cancel mid-stream, then resume from stream.state with the same session — the turn finishes once, nothing duplicated', async () => {
    let ran = 0;
    const t = tool({
      name: 'slow',
      description: '',
      execute: async () => {
        ran++;
        return 'slow done';
      },
    });
    const model = new ScriptedModel([
      { output: [fc('slow', {}, 'c1')], delayMs: 0 },
      { output: [msg('finished')], delayMs: 50 },
    ]);
    const agent = new Agent({ name: 'A', tools: [t], model });
    const session = new MemorySession();
    const result = await run(agent, 'go', { stream: true, session });
    const seen: string[] = [];
    for await (const e of result) {
      seen.push(label(e));
      if (label(e) === 'item:tool_output') result.cancel();
    }
    await result.completed;
    expect(result.cancelled).toBe(true);
    expect(result.finalOutput).toBeUndefined();
    expect(ran).toBe(1);
    const resumed = await run(agent, result.state, { stream: true, session });
    const { error } = await drain(resumed);
    await resumed.completed;
    expect(error).toBeUndefined();
    expect(resumed.finalOutput).toBe('finished');
    expect(ran).toBe(1);
    const stored = (await session.getItems()).map(
      (i) => `${i.type}:${(i as any).call_id ?? (i as any).role}`,
    );
    expect(stored).toEqual([
      'message:user',
      'function_call:c1',
      'function_call_output:c1',
      'message:assistant',
    ]);
    expect(model.requests).toHaveLength(2);
    expect(
      model.requests[1].input.filter((i) => i.type === 'message' && i.role === 'user'),
    ).toHaveLength(1);
  });

  it('openai-agents-python#590: cancelling before the first event leaves no model output and a resumable state', async () => {
    const model = new ScriptedModel([{ output: [msg('late')], delayMs: 200 }, [msg('again')]]);
    const agent = new Agent({ name: 'A', model });
    const result = await run(agent, 'x', { stream: true });
    result.cancel();
    const { error } = await drain(result);
    await result.completed;
    expect(error).toBeUndefined();
    expect(result.finalOutput).toBeUndefined();
    const resumed = await run(agent, result.state);
    // Cancelled before the model call started: it was never made (the resume makes the first).
    expect(model.requests).toHaveLength(1);
    expect(resumed.finalOutput).toBe('late');
    const users = model.requests[0].input.filter((i) => i.type === 'message' && i.role === 'user');
    expect(users).toHaveLength(1);
  });
  it('openai-agents-python streaming docs: a tool call and a handoff in one response stream tool_called, handoff_requested, tool_output, handoff_occurred, then the new agent', async () => {
    const note = tool({ name: 'note', description: '', execute: () => 'n' });
    const billing = new Agent({ name: 'Billing', model: new ScriptedModel([[msg('billing')]]) });
    const triage = new Agent({
      name: 'Triage',
      tools: [note],
      handoffs: [billing],
      model: new ScriptedModel([[fc('note', {}, 'c1'), fc('transfer_to_billing', {}, 'h1')]]),
    });
    const result = await run(triage, 'x', { stream: true });
    const { events } = await drain(result);
    await result.completed;
    const compact = events
      .filter((e) => e.type !== 'raw_model_stream_event')
      .map((e) =>
        e.type === 'run_item_stream_event'
          ? `${e.name}:${(e.item.raw_item as { call_id?: string }).call_id ?? ''}`
          : e.type === 'agent_updated_stream_event'
            ? `agent:${e.agent.name}`
            : e.type,
      );
    expect(compact).toEqual([
      'agent:Triage',
      'tool_called:c1',
      'handoff_requested:h1',
      'tool_output:c1',
      'handoff_occurred:h1',
      'agent:Billing',
      'message_output_created:',
    ]);
  });
});
