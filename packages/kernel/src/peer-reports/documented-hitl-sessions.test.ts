/**
 * Behaviour documented in openai-agents-js `guides/human-in-the-loop.mdx`, `sessions.mdx` and
 * `context.mdx`, checked in both modes and after a RunState JSON round trip.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { UserError } from '../errors/errors.js';
import { handoff } from '../handoff/handoff.js';
import type { Item } from '../items/item-types.js';
import { DEFAULT_REJECTION_TEXT } from '../loop/execute-tools.js';
import { RunState } from '../run-state/run-state.js';
import { MemorySession } from '../session/memory-session.js';
import { tool } from '../tool/tool.js';

const keys = (items: Item[]) =>
  items.map(
    (i) => `${i.type}:${(i as { call_id?: string }).call_id ?? (i as { role?: string }).role}`,
  );
const outputOf = (items: Item[], callId: string) =>
  JSON.stringify(
    items.find(
      (i) => i.type === 'function_call_output' && (i as { call_id: string }).call_id === callId,
    ),
  );
const user = (text: string) => ({ type: 'message', role: 'user', content: text }) as Item;

async function resumeState(agent: Agent<any, any>, state: RunState<any, any>, roundTrip: boolean) {
  return roundTrip ? RunState.fromString(agent, state.toString()) : state;
}

for (const stream of [false, true])
  for (const roundTrip of [false, true])
    describe(`documented: human-in-the-loop.mdx (${stream ? 'streamed' : 'non-streamed'}${roundTrip ? ', after JSON' : ''})`, () => {
      it('human-in-the-loop.mdx "Approval flow": needsApproval as an async function pauses only the calls it returns true for; it gets the context, the parsed input and the call id', async () => {
        const seen: unknown[] = [];
        const ran: string[] = [];
        const send = tool({
          name: 'send_money',
          description: '',
          parameters: z.object({ amount: z.number() }),
          needsApproval: async (ctx, input, callId) => {
            seen.push([(ctx.context as { user: string }).user, input, callId]);
            return input.amount > 100;
          },
          execute: ({ amount }) => {
            ran.push(`sent ${amount}`);
            return `sent ${amount}`;
          },
        });
        const agent = new Agent({
          name: 'A',
          tools: [send],
          model: new ScriptedModel([
            [fc('send_money', { amount: 5 }, 'small'), fc('send_money', { amount: 500 }, 'big')],
            [msg('done')],
          ]),
        });
        const first = await runMode(
          () => ({ agent, input: 'pay', options: { context: { user: 'ana' } } }),
          stream,
        );
        expect(seen).toEqual([
          ['ana', { amount: 5 }, 'small'],
          ['ana', { amount: 500 }, 'big'],
        ]);
        expect(first.result!.interruptions.map((i) => i.call_id)).toEqual(['big']);
        const state = await resumeState(agent, first.result!.state, roundTrip);
        state.approve(state.getInterruptions()[0]);
        const second = await runMode(
          () => ({ agent, input: state as any, options: { context: { user: 'ana' } } }),
          stream,
        );
        expect(second.result!.finalOutput).toBe('done');
        expect(ran.sort()).toEqual(['sent 5', 'sent 500']);
      });

      it('human-in-the-loop.mdx "Flow" step 4: approve(item, { always: true }) (their alwaysApprove) approves later calls of that tool for the rest of the run', async () => {
        let ran = 0;
        const del = tool({
          name: 'delete_file',
          description: '',
          parameters: z.object({ path: z.string() }),
          needsApproval: true,
          execute: ({ path }) => `deleted ${path} #${++ran}`,
        });
        const agent = new Agent({
          name: 'A',
          tools: [del],
          model: new ScriptedModel([
            [fc('delete_file', { path: 'a' }, 'c1')],
            [fc('delete_file', { path: 'b' }, 'c2')],
            [fc('delete_file', { path: 'c' }, 'c3')],
            [msg('all deleted')],
          ]),
        });
        const first = await runMode(() => ({ agent, input: 'clean' }), stream);
        const state = await resumeState(agent, first.result!.state, roundTrip);
        state.approve(state.getInterruptions()[0], { always: true });
        const again = await resumeState(agent, state, roundTrip); // sticky decisions survive JSON
        const second = await runMode(() => ({ agent, input: again as any }), stream);
        expect(second.result!.interruptions).toEqual([]);
        expect(second.result!.finalOutput).toBe('all deleted');
        expect(ran).toBe(3);
      });

      it('human-in-the-loop.mdx "Flow" step 4: reject(item, { message }) sends that message to the model; reject(item, { always: true }) rejects later calls without pausing; the default text otherwise', async () => {
        let ran = 0;
        const del = tool({
          name: 'delete_file',
          description: '',
          needsApproval: true,
          execute: () => `deleted #${++ran}`,
        });
        const model = new ScriptedModel([
          [fc('delete_file', {}, 'c1'), fc('delete_file', {}, 'c2')],
          [fc('delete_file', {}, 'c3')],
          [msg('gave up')],
        ]);
        const agent = new Agent({ name: 'A', tools: [del], model });
        const first = await runMode(() => ({ agent, input: 'clean' }), stream);
        const state = await resumeState(agent, first.result!.state, roundTrip);
        const [one, two] = state.getInterruptions();
        state.reject(one, { message: 'Not on Fridays.' });
        state.reject(two, { always: true });
        const second = await runMode(() => ({ agent, input: state as any }), stream);
        expect(second.result!.interruptions).toEqual([]);
        expect(second.result!.finalOutput).toBe('gave up');
        expect(ran).toBe(0);
        const last = model.requests[2].input;
        expect(outputOf(last, 'c1')).toContain('Not on Fridays.');
        expect(outputOf(last, 'c2')).toContain(JSON.stringify(DEFAULT_REJECTION_TEXT).slice(1, -1));
        expect(outputOf(last, 'c3')).toContain(JSON.stringify(DEFAULT_REJECTION_TEXT).slice(1, -1));
      });

      it('human-in-the-loop.mdx: an approval raised by an agent reached through a handoff surfaces on the run; RunState.fromString with the top-level agent resumes it in that agent', async () => {
        let ran = 0;
        const refund = tool({
          name: 'refund',
          description: '',
          needsApproval: true,
          execute: () => `refunded #${++ran}`,
        });
        const billing = new Agent({
          name: 'Billing',
          tools: [refund],
          model: new ScriptedModel([[fc('refund', {}, 'c1')], [msg('refund done')]]),
        });
        const triage = new Agent({
          name: 'Triage',
          handoffs: [billing],
          model: new ScriptedModel([[fc('transfer_to_billing', {}, 'h1')]]),
        });
        const first = await runMode(() => ({ agent: triage, input: 'refund' }), stream);
        expect(first.result!.interruptions[0].agent.name).toBe('Billing');
        expect(first.result!.lastAgent).toBe(billing);
        const state = await resumeState(triage, first.result!.state, roundTrip);
        state.approve(state.getInterruptions()[0]);
        const second = await runMode(() => ({ agent: triage, input: state as any }), stream);
        expect(second.result!.finalOutput).toBe('refund done');
        expect(second.result!.lastAgent).toBe(billing);
        expect(ran).toBe(1);
      });

      it('human-in-the-loop.mdx "Dealing with longer approval times": JSON.stringify(result.state) is the same as toString() and RunState.fromString reads it', async () => {
        const risky = tool({
          name: 'risky',
          description: '',
          needsApproval: true,
          execute: () => 'ran',
        });
        const agent = new Agent({
          name: 'A',
          tools: [risky],
          model: new ScriptedModel([[fc('risky', {}, 'c1')], [msg('ok')]]),
        });
        const first = await runMode(() => ({ agent, input: 'x' }), stream);
        const json = JSON.stringify(first.result!.state);
        expect(JSON.parse(json)).toEqual(JSON.parse(first.result!.state.toString()));
        const state = await RunState.fromString(agent, json);
        state.approve(state.getInterruptions()[0]);
        const second = await runMode(() => ({ agent, input: state as any }), stream);
        expect(second.result!.finalOutput).toBe('ok');
      });

      it('human-in-the-loop.mdx "Streaming and sessions": resuming with the same session appends the resumed turn once, without re-preparing the input', async () => {
        const risky = tool({
          name: 'risky',
          description: '',
          needsApproval: true,
          execute: () => 'ran',
        });
        const model = new ScriptedModel([[msg('hello')], [fc('risky', {}, 'c1')], [msg('ok')]]);
        const agent = new Agent({ name: 'A', tools: [risky], model });
        const session = new MemorySession();
        await runMode(() => ({ agent, input: 'hi', options: { session } }), stream);
        const first = await runMode(
          () => ({ agent, input: 'do it', options: { session } }),
          stream,
        );
        const state = await resumeState(agent, first.result!.state, roundTrip);
        state.approve(state.getInterruptions()[0]);
        await runMode(() => ({ agent, input: state as any, options: { session } }), stream);
        const stored = keys(await session.getItems());
        expect(stored).toEqual([
          'message:user',
          'message:assistant',
          'message:user',
          'function_call:c1',
          'function_call_output:c1',
          'message:assistant',
        ]);
        expect(keys(model.requests[2].input)).toEqual(stored.slice(0, 5));
      });
    });

for (const stream of [false, true])
  describe(`documented: sessions.mdx / context.mdx (${stream ? 'streamed' : 'non-streamed'})`, () => {
    it('sessions.mdx "How the runner uses sessions": history is prepended before each run and new input plus outputs are stored', async () => {
      const model = new ScriptedModel([[msg('Hi Ana.')], [msg('You are Ana.')]]);
      const agent = new Agent({ name: 'A', model });
      const session = new MemorySession();
      await runMode(() => ({ agent, input: 'I am Ana', options: { session } }), stream);
      const second = await runMode(
        () => ({ agent, input: 'Who am I?', options: { session } }),
        stream,
      );
      expect(second.result!.finalOutput).toBe('You are Ana.');
      expect(keys(model.requests[1].input)).toEqual([
        'message:user',
        'message:assistant',
        'message:user',
      ]);
      expect(keys(await session.getItems())).toEqual([
        'message:user',
        'message:assistant',
        'message:user',
        'message:assistant',
      ]);
    });

    it('sessions.mdx "MemorySession constructor options": initialItems seed the history the model sees', async () => {
      const model = new ScriptedModel([[msg('ok')]]);
      const session = new MemorySession({
        sessionId: 'fixed',
        initialItems: [user('earlier question')],
      });
      expect(session.sessionId).toBe('fixed');
      await runMode(
        () => ({ agent: new Agent({ name: 'A', model }), input: 'now', options: { session } }),
        stream,
      );
      expect(JSON.stringify(model.requests[0].input[0])).toContain('earlier question');
      expect(keys(await session.getItems())).toEqual([
        'message:user',
        'message:user',
        'message:assistant',
      ]);
    });

    it('sessions.mdx "Inspecting and editing history": popItem() removes the last entry, clearSession() empties it; the next run sees the edited history', async () => {
      const model = new ScriptedModel([[msg('first answer')], [msg('second answer')]]);
      const agent = new Agent({ name: 'A', model });
      const session = new MemorySession();
      await runMode(() => ({ agent, input: 'typo qestion', options: { session } }), stream);
      expect(keys([(await session.popItem())!])).toEqual(['message:assistant']);
      expect(JSON.stringify(await session.popItem())).toContain('typo qestion');
      await runMode(() => ({ agent, input: 'fixed question', options: { session } }), stream);
      expect(keys(model.requests[1].input)).toEqual(['message:user']);
      expect(JSON.stringify(model.requests[1].input)).not.toContain('typo');
      await session.clearSession();
      expect(await session.getItems()).toEqual([]);
    });

    it('sessions.mdx "Control how history and new items merge": sessionInputCallback(history, newItems) returns the whole turn input; a non-array is a UserError', async () => {
      const model = new ScriptedModel([[msg('a1')], [msg('a2')]]);
      const agent = new Agent({ name: 'A', model });
      const session = new MemorySession({ initialItems: [user('old 1'), user('old 2')] });
      const out = await runMode(
        () => ({
          agent,
          input: [user('new')],
          options: {
            session,
            sessionInputCallback: (history, items) => [...history.slice(-1), ...items],
          },
        }),
        stream,
      );
      expect(out.result!.finalOutput).toBe('a1');
      expect(model.requests[0].input.map((i) => JSON.stringify(i))).toEqual([
        JSON.stringify(user('old 2')),
        JSON.stringify(user('new')),
      ]);
      // The stored history is not rewritten: the new input and output are appended once.
      expect(
        (await session.getItems()).map((i) => JSON.stringify(i).includes('new') || i.type),
      ).toEqual(['message', 'message', true, 'message']);
      const bad = await runMode(
        () => ({
          agent: new Agent({ name: 'A', model: new ScriptedModel([[msg('x')]]) }),
          input: 'x',
          options: { session: new MemorySession(), sessionInputCallback: () => 'nope' as any },
        }),
        stream,
      );
      expect(bad.error).toBeInstanceOf(UserError);
    });

    it('context.mdx "Local context": the context object reaches instructions, tools, onHandoff, guardrails and hooks by reference and is never sent to the model', async () => {
      const context = { secret: 'sk-TOPSECRET', seen: [] as string[] };
      const note = (where: string, c: unknown) => {
        expect(c).toBe(context);
        context.seen.push(where);
      };
      const lookup = tool({
        name: 'lookup',
        description: '',
        execute: (_args, ctx) => {
          note('tool', ctx.context);
          return 'found';
        },
      });
      const target = new ScriptedModel([[fc('lookup', {}, 'c1')], [msg('done')]]);
      const billing = new Agent<typeof context>({
        name: 'Billing',
        instructions: (ctx, agent) => {
          note(`instructions:${agent.name}`, ctx.context);
          return 'be brief';
        },
        tools: [lookup],
        model: target,
      });
      const triageModel = new ScriptedModel([[fc('transfer_to_billing', {}, 'h1')]]);
      const triage = new Agent<typeof context>({
        name: 'Triage',
        handoffs: [handoff(billing, { onHandoff: (ctx) => note('onHandoff', ctx.context) })],
        inputGuardrails: [
          {
            name: 'g',
            execute: ({ context: ctx }: any) => {
              note('guardrail', ctx.context);
              return { tripwireTriggered: false, outputInfo: null };
            },
          } as any,
        ],
        model: triageModel,
      });
      const out = await runMode(
        () => ({
          agent: triage,
          input: 'x',
          options: {
            context,
            hooks: { onToolEnd: (ctx) => note('hook', ctx.context) },
          },
        }),
        stream,
      );
      expect(out.result!.finalOutput).toBe('done');
      expect(new Set(context.seen)).toEqual(
        new Set(['guardrail', 'onHandoff', 'instructions:Billing', 'tool', 'hook']),
      );
      for (const r of [...triageModel.requests, ...target.requests])
        expect(JSON.stringify(r)).not.toContain('TOPSECRET');
    });

    it('context.mdx "What RunContext exposes": runContext.usage holds the run\'s usage so far', async () => {
      const seen: number[] = [];
      const t = tool({
        name: 't',
        description: '',
        execute: (_a, ctx) => {
          seen.push(ctx.usage.inputTokens);
          return 'ok';
        },
      });
      const agent = new Agent({
        name: 'A',
        tools: [t],
        model: new ScriptedModel([[fc('t', {}, 'c1')], [msg('done')]]),
      });
      const out = await runMode(() => ({ agent, input: 'x' }), stream);
      expect(seen).toEqual([10]);
      expect(out.result!.usage.inputTokens).toBe(20);
    });
  });
