/**
 * Max turns and cancellation around handoffs, in both modes and after a RunState JSON round
 * trip: `errorHandlers.maxTurns` puts its final output in the history as the OpenAI Agents SDKs
 * document (`RunErrorHandlerResult.include_in_history` / `includeInHistory`, default true); a
 * run stopped by `maxTurns` or a cancel right after a handoff resumes with the target agent.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { MaxTurnsExceededError } from '../errors/errors.js';
import type { Item } from '../items/item-types.js';
import { run } from '../loop/run.js';
import { RunState } from '../run-state/run-state.js';
import { MemorySession } from '../session/memory-session.js';
import { tool } from '../tool/tool.js';

const keys = (items: Item[]) =>
  items.map(
    (i) => `${i.type}:${(i as { call_id?: string }).call_id ?? (i as { role?: string }).role}`,
  );

function looping(outputType?: z.ZodObject<any>) {
  const again = tool({ name: 'again', description: '', execute: () => 'more' });
  const model = new ScriptedModel([[fc('again', {})]], { whenExhausted: 'repeat_last' });
  return new Agent({ name: 'Loop', tools: [again], model, ...(outputType ? { outputType } : {}) });
}

for (const stream of [false, true])
  describe(`max turns and handoffs (${stream ? 'streamed' : 'non-streamed'})`, () => {
    it('errorHandlers.maxTurns: the final output becomes an assistant message of the run, stored in the session', async () => {
      const session = new MemorySession();
      const out = await runMode(
        () => ({
          agent: looping(),
          input: 'x',
          options: {
            maxTurns: 2,
            session,
            errorHandlers: { maxTurns: () => ({ finalOutput: 'Stopped after 2 turns.' }) },
          },
        }),
        stream,
      );
      const result = out.result!;
      expect(result.finalOutput).toBe('Stopped after 2 turns.');
      const last = result.newItems.at(-1)!;
      expect(last.type).toBe('message_output_item');
      expect(last.raw_item).toMatchObject({
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Stopped after 2 turns.' }],
      });
      const stored = await session.getItems();
      expect(keys(stored).at(-1)).toBe('message:assistant');
      expect(JSON.stringify(stored.at(-1))).toContain('Stopped after 2 turns.');
      expect(keys(result.history)).toEqual(keys(stored));
      if (stream)
        expect(
          out.events.some(
            (e) => e.type === 'run_item_stream_event' && e.name === 'message_output_created',
          ),
        ).toBe(true);
    });

    it('errorHandlers.maxTurns with includeInHistory: false adds nothing; a structured output is stored as its JSON', async () => {
      const session = new MemorySession();
      const hidden = await runMode(
        () => ({
          agent: looping(),
          input: 'x',
          options: {
            maxTurns: 1,
            session,
            errorHandlers: { maxTurns: () => ({ finalOutput: 'quiet', includeInHistory: false }) },
          },
        }),
        stream,
      );
      expect(hidden.result!.finalOutput).toBe('quiet');
      expect(hidden.result!.newItems.some((i) => i.type === 'message_output_item')).toBe(false);
      expect(JSON.stringify(await session.getItems())).not.toContain('quiet');

      const structured = await runMode(
        () => ({
          agent: looping(z.object({ done: z.boolean() })),
          input: 'x',
          options: {
            maxTurns: 1,
            errorHandlers: { maxTurns: () => ({ finalOutput: { done: false } }) },
          },
        }),
        stream,
      );
      expect(structured.result!.finalOutput).toEqual({ done: false });
      expect(structured.result!.newItems.at(-1)!.raw_item).toMatchObject({
        content: [{ type: 'output_text', text: '{"done":false}' }],
      });
    });

    it('maxTurns reached by the turn that handed off: resuming with a larger limit goes on with the target', async () => {
      const delegate = new Agent({
        name: 'Delegate',
        model: new ScriptedModel([[msg('delegated')]]),
      });
      const triageModel = new ScriptedModel([[fc('transfer_to_delegate', {}, 'h1')]]);
      const triage = new Agent({ name: 'Triage', handoffs: [delegate], model: triageModel });
      const session = new MemorySession();
      const first = await runMode(
        () => ({ agent: triage, input: 'x', options: { maxTurns: 1, session } }),
        stream,
      );
      expect(first.error).toBeInstanceOf(MaxTurnsExceededError);
      const carried = (first.error as MaxTurnsExceededError).state as RunState<any, any>;
      const state = await RunState.fromString(triage, carried.toString());
      const second = await runMode(
        () => ({ agent: triage, input: state as any, options: { maxTurns: 5, session } }),
        stream,
      );
      expect(second.result!.finalOutput).toBe('delegated');
      expect(second.result!.lastAgent.name).toBe('Delegate');
      expect(triageModel.requests).toHaveLength(1);
      expect(keys(await session.getItems())).toEqual([
        'message:user',
        'function_call:h1',
        'function_call_output:h1',
        'message:assistant',
      ]);
    });
  });

it('openai-agents-js#1114: a stream cancelled right after the handoff event resumes with the target agent, history once', async () => {
  const delegate = new Agent({
    name: 'Delegate',
    model: new ScriptedModel([{ output: [msg('delegated')], delayMs: 30 }], {
      whenExhausted: 'repeat_last',
    }),
  });
  const triageModel = new ScriptedModel([[fc('transfer_to_delegate', {}, 'h1')]]);
  const triage = new Agent({ name: 'Triage', handoffs: [delegate], model: triageModel });
  const session = new MemorySession();
  const streamed = await run(triage, 'x', { stream: true, session });
  for await (const e of streamed)
    if (e.type === 'agent_updated_stream_event' && e.agent.name === 'Delegate') streamed.cancel();
  await streamed.completed;
  expect(streamed.finalOutput).toBeUndefined();
  const state = await RunState.fromString(triage, streamed.state.toString());
  const resumed = await run(triage, state, { session });
  expect(resumed.finalOutput).toBe('delegated');
  expect(triageModel.requests).toHaveLength(1);
  expect(keys(await session.getItems())).toEqual([
    'message:user',
    'function_call:h1',
    'function_call_output:h1',
    'message:assistant',
  ]);
});
