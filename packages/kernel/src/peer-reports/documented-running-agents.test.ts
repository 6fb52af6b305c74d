/**
 * Behaviour documented in openai-agents-js `guides/running-agents.mdx`, `streaming.mdx` and
 * `results.mdx`, checked in both modes (and after a RunState JSON round trip where a run pauses).
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { MaxTurnsExceededError, UserError } from '../errors/errors.js';
import { handoff } from '../handoff/handoff.js';
import type { Item } from '../items/item-types.js';
import { run } from '../loop/run.js';
import type { RunStreamEvent } from '../loop/run-events.js';
import { RunState } from '../run-state/run-state.js';
import { MemorySession } from '../session/memory-session.js';
import { tool } from '../tool/tool.js';

const keys = (items: Item[]) =>
  items.map(
    (i) => `${i.type}:${(i as { call_id?: string }).call_id ?? (i as { role?: string }).role}`,
  );
const textOf = (i: Item) => JSON.stringify(i);

for (const stream of [false, true])
  describe(`documented: running-agents.mdx / results.mdx (${stream ? 'streamed' : 'non-streamed'})`, () => {
    it('running-agents.mdx "The agent loop": tool calls run, their results are appended, the model is called again; text without tool calls is the final output', async () => {
      const calls: string[] = [];
      const weather = tool({
        name: 'get_weather',
        description: '',
        parameters: z.object({ city: z.string() }),
        execute: ({ city }) => {
          calls.push(city);
          return `sunny in ${city}`;
        },
      });
      const model = new ScriptedModel([
        [fc('get_weather', { city: 'Paris' }, 'c1')],
        [msg('It is sunny.')],
      ]);
      const agent = new Agent({ name: 'A', tools: [weather], model });
      const out = await runMode(() => ({ agent, input: 'weather?' }), stream);
      expect(out.result!.finalOutput).toBe('It is sunny.');
      expect(calls).toEqual(['Paris']);
      expect(keys(model.requests[1].input)).toEqual([
        'message:user',
        'function_call:c1',
        'function_call_output:c1',
      ]);
      expect(textOf(model.requests[1].input[2])).toContain('sunny in Paris');
    });

    it('running-agents.mdx "Run arguments": maxTurns defaults to 10 and throws MaxTurnsExceededError; null disables the limit', async () => {
      const again = tool({ name: 'again', description: '', execute: () => 'more' });
      const looping = () =>
        new ScriptedModel([[fc('again', {})]], { whenExhausted: 'repeat_last' });
      const m = looping();
      const out = await runMode(
        () => ({ agent: new Agent({ name: 'L', tools: [again], model: m }), input: 'x' }),
        stream,
      );
      expect(out.error).toBeInstanceOf(MaxTurnsExceededError);
      expect(m.requests).toHaveLength(10);
      const steps = [
        ...Array.from({ length: 12 }, (_, n) => [fc('again', {}, `c${n}`)]),
        [msg('finally')],
      ];
      const unlimited = await runMode(
        () => ({
          agent: new Agent({ name: 'L', tools: [again], model: new ScriptedModel(steps) }),
          input: 'x',
          options: { maxTurns: null },
        }),
        stream,
      );
      expect(unlimited.result!.finalOutput).toBe('finally');
    });

    it('running-agents.mdx "Run config": a run-level model replaces every agent\'s model (also after a handoff)', async () => {
      const forced = new ScriptedModel([[fc('transfer_to_billing', {}, 'h1')], [msg('billed')]]);
      const unused = new ScriptedModel([]);
      const billing = new Agent({ name: 'Billing', model: unused });
      const triage = new Agent({ name: 'Triage', handoffs: [billing], model: unused });
      const out = await runMode(
        () => ({ agent: triage, input: 'bill me', options: { model: forced } }),
        stream,
      );
      expect(out.result!.finalOutput).toBe('billed');
      expect(unused.calls).toBe(0);
      expect(forced.calls).toBe(2);
    });

    it('running-agents.mdx "Run config" handoffInputFilter: applies to handoffs without their own filter; a handoff\'s inputFilter takes precedence', async () => {
      const runFilter = (data: any) => ({ ...data, inputHistory: [] });
      const ownFilter = (data: any) => ({ ...data, preHandoffItems: [], newItems: [] });
      for (const own of [false, true]) {
        const target = new ScriptedModel([[msg('ok')]]);
        const billing = new Agent({ name: 'Billing', model: target });
        const triage = new Agent({
          name: 'Triage',
          handoffs: [own ? handoff(billing, { inputFilter: ownFilter }) : billing],
          model: new ScriptedModel([[fc('transfer_to_billing', {}, 'h1')]]),
        });
        const out = await runMode(
          () => ({
            agent: triage,
            input: 'secret input',
            options: { handoffInputFilter: runFilter },
          }),
          stream,
        );
        expect(out.result!.finalOutput).toBe('ok');
        const seen = keys(target.requests[0].input);
        if (own) expect(seen).toEqual(['message:user']);
        else expect(seen).toEqual(['function_call:h1', 'function_call_output:h1']);
      }
    });

    it('running-agents.mdx "Call model input filter": it edits input and instructions before the model call; a bad return is a UserError', async () => {
      const model = new ScriptedModel([[msg('ok')]]);
      const agent = new Agent({ name: 'A', instructions: 'original', model });
      const out = await runMode(
        () => ({
          agent,
          input: 'my ssn is 123',
          options: {
            callModelInputFilter: (data) => ({
              systemInstructions: `${data.systemInstructions} + extra`,
              input: [
                ...data.input,
                { type: 'message', role: 'user', content: 'appended' } as Item,
              ],
            }),
          },
        }),
        stream,
      );
      expect(out.result!.finalOutput).toBe('ok');
      expect(model.requests[0].systemInstructions).toBe('original + extra');
      expect(model.requests[0].input.map(textOf).join()).toContain('appended');
      const bad = await runMode(
        () => ({
          agent: new Agent({ name: 'A', model: new ScriptedModel([[msg('ok')]]) }),
          input: 'x',
          options: { callModelInputFilter: () => ({ nope: true }) as any },
        }),
        stream,
      );
      expect(bad.error).toBeInstanceOf(UserError);
    });

    it('running-agents.mdx "Error handlers": errorHandlers.maxTurns turns MaxTurnsExceededError into a final output', async () => {
      const again = tool({ name: 'again', description: '', execute: () => 'more' });
      const out = await runMode(
        () => ({
          agent: new Agent({
            name: 'L',
            tools: [again],
            model: new ScriptedModel([[fc('again', {})]], { whenExhausted: 'repeat_last' }),
          }),
          input: 'x',
          options: {
            maxTurns: 3,
            errorHandlers: { maxTurns: () => ({ finalOutput: 'Too many turns.' }) },
          },
        }),
        stream,
      );
      expect(out.result!.finalOutput).toBe('Too many turns.');
    });

    it('running-agents.mdx "Conversations / chat threads": result.history plus a new user message continues the conversation', async () => {
      const model = new ScriptedModel([[msg('Hi Ana.')], [msg('Your name is Ana.')]]);
      const agent = new Agent({ name: 'A', model });
      const first = await runMode(() => ({ agent, input: 'I am Ana' }), stream);
      const next = [
        ...first.result!.history,
        { type: 'message', role: 'user', content: 'Who am I?' } as Item,
      ];
      const second = await runMode(() => ({ agent, input: next }), stream);
      expect(second.result!.finalOutput).toBe('Your name is Ana.');
      expect(keys(model.requests[1].input)).toEqual([
        'message:user',
        'message:assistant',
        'message:user',
      ]);
      expect(keys(second.result!.history)).toEqual([
        'message:user',
        'message:assistant',
        'message:user',
        'message:assistant',
      ]);
    });

    it('results.mdx "Input and output surfaces": history = input + newItems, output = newItems as items; newItems carry their agents; lastAgent is the agent after a handoff', async () => {
      const lookup = tool({ name: 'lookup', description: '', execute: () => 'found' });
      const billing = new Agent({
        name: 'Billing',
        tools: [lookup],
        model: new ScriptedModel([[fc('lookup', {}, 'c1')], [msg('refunded')]]),
      });
      const triage = new Agent({
        name: 'Triage',
        handoffs: [billing],
        model: new ScriptedModel([[fc('transfer_to_billing', {}, 'h1')]]),
      });
      const input: Item[] = [{ type: 'message', role: 'user', content: 'refund' } as Item];
      const out = await runMode(() => ({ agent: triage, input }), stream);
      const r = out.result!;
      expect(r.lastAgent).toBe(billing);
      expect(r.newItems.map((i) => `${i.type}@${i.agent.name}`)).toEqual([
        'handoff_call_item@Triage',
        'handoff_output_item@Triage',
        'tool_call_item@Billing',
        'tool_call_output_item@Billing',
        'message_output_item@Billing',
      ]);
      expect(r.history).toEqual([...input, ...r.newItems.map((i) => i.raw_item)]);
      expect(r.output).toEqual(r.newItems.map((i) => i.raw_item)); // "output": the new items only
      expect(r.rawResponses).toHaveLength(3);
      expect(r.usage.requests ?? r.rawResponses.length).toBe(3);
    });

    it('results.mdx "Final output": finalOutput is the parsed outputType object; undefined when the run paused on an approval', async () => {
      const out = await runMode(
        () => ({
          agent: new Agent({
            name: 'A',
            outputType: z.object({ city: z.string() }),
            model: new ScriptedModel([[msg('{"city":"Oslo"}')]]),
          }),
          input: 'x',
        }),
        stream,
      );
      expect(out.result!.finalOutput).toEqual({ city: 'Oslo' });
      const risky = tool({
        name: 'risky',
        description: '',
        needsApproval: true,
        execute: () => 'ran',
      });
      const paused = await runMode(
        () => ({
          agent: new Agent({
            name: 'A',
            tools: [risky],
            model: new ScriptedModel([[fc('risky', {}, 'c1')]]),
          }),
          input: 'x',
        }),
        stream,
      );
      expect(paused.result!.finalOutput).toBeUndefined();
      expect(paused.result!.interruptions).toHaveLength(1);
    });

    it('results.mdx "Interruptions and resumable state": resolving only some approvals continues those calls; the others stay pending and pause again (also after JSON)', async () => {
      for (const roundTrip of [false, true]) {
        const ran: string[] = [];
        const risky = tool({
          name: 'risky',
          description: '',
          parameters: z.object({ n: z.number() }),
          needsApproval: true,
          execute: ({ n }) => {
            ran.push(`n${n}`);
            return `done ${n}`;
          },
        });
        const model = new ScriptedModel([
          [fc('risky', { n: 1 }, 'c1'), fc('risky', { n: 2 }, 'c2')],
          [msg('all done')],
        ]);
        const agent = new Agent({ name: 'A', tools: [risky], model });
        const first = await runMode(() => ({ agent, input: 'x' }), stream);
        expect(first.result!.interruptions.map((i) => i.call_id)).toEqual(['c1', 'c2']);
        let state = first.result!.state;
        if (roundTrip) state = await RunState.fromString(agent, state.toString());
        state.approve(state.getInterruptions().find((i) => i.call_id === 'c1')!);
        const second = await runMode(() => ({ agent, input: state as any }), stream);
        expect(ran).toEqual(['n1']);
        expect(second.result!.interruptions.map((i) => i.call_id)).toEqual(['c2']);
        expect(model.calls).toBe(1);
        let state2 = second.result!.state;
        if (roundTrip) state2 = await RunState.fromString(agent, state2.toString());
        state2.reject(state2.getInterruptions()[0]);
        const third = await runMode(() => ({ agent, input: state2 as any }), stream);
        expect(third.result!.finalOutput).toBe('all done');
        expect(ran).toEqual(['n1']);
        expect(keys(model.requests[1].input)).toEqual([
          'message:user',
          'function_call:c1',
          'function_call:c2',
          'function_call_output:c1',
          'function_call_output:c2',
        ]);
      }
    });

    it('running-agents.mdx "Exceptions": input guardrails run only on the first input; a resumed state does not run them again (session history kept)', async () => {
      let runs = 0;
      const risky = tool({
        name: 'risky',
        description: '',
        needsApproval: true,
        execute: () => 'ran',
      });
      const agent = new Agent({
        name: 'A',
        tools: [risky],
        model: new ScriptedModel([[fc('risky', {}, 'c1')], [msg('done')]]),
        inputGuardrails: [
          {
            name: 'g',
            execute: () => {
              runs++;
              return { tripwireTriggered: false, outputInfo: null };
            },
          } as any,
        ],
      });
      const session = new MemorySession();
      const first = await runMode(() => ({ agent, input: 'x', options: { session } }), stream);
      const state = await RunState.fromString(agent, first.result!.state.toString());
      state.approve(state.getInterruptions()[0]);
      const second = await runMode(
        () => ({ agent, input: state as any, options: { session } }),
        stream,
      );
      expect(second.result!.finalOutput).toBe('done');
      expect(runs).toBe(1);
      expect(keys(await session.getItems())).toEqual([
        'message:user',
        'function_call:c1',
        'function_call_output:c1',
        'message:assistant',
      ]);
    });
  });

const label = (e: RunStreamEvent): string =>
  e.type === 'run_item_stream_event'
    ? `item:${e.name}`
    : e.type === 'agent_updated_stream_event'
      ? `agent:${e.agent.name}`
      : e.type;

describe('documented: streaming.mdx', () => {
  it('streaming.mdx "Get the text output": toTextStream() yields only assistant text, not tool arguments', async () => {
    const t = tool({
      name: 'lookup',
      description: '',
      parameters: z.object({ q: z.string() }),
      execute: () => 'found',
    });
    const agent = new Agent({
      name: 'A',
      tools: [t],
      model: new ScriptedModel([
        [fc('lookup', { q: 'ARGUMENTS' }, 'c1')],
        [msg('Hello world, all good.')],
      ]),
    });
    const result = await run(agent, 'x', { stream: true });
    let text = '';
    for await (const chunk of result.toTextStream()) text += chunk;
    await result.completed;
    expect(text).toBe('Hello world, all good.');
    expect(result.finalOutput).toBe('Hello world, all good.');
  });

  it('streaming.mdx / results.mdx: finalOutput is undefined while the stream runs and set once completed resolves', async () => {
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[msg('the answer')]]) });
    const result = await run(agent, 'x', { stream: true });
    const seen: unknown[] = [];
    for await (const _ of result) seen.push(result.finalOutput);
    await result.completed;
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.slice(0, -1).every((v) => v === undefined)).toBe(true);
    expect(result.finalOutput).toBe('the answer');
  });

  it('streaming.mdx "Event types": a handoff emits handoff_requested, handoff_occurred and agent_updated_stream_event; an approval emits tool_approval_requested', async () => {
    const risky = tool({
      name: 'risky',
      description: '',
      needsApproval: true,
      execute: () => 'ran',
    });
    const refund = new Agent({
      name: 'Refund Agent',
      tools: [risky],
      model: new ScriptedModel([[fc('risky', {}, 'c1')]]),
    });
    const triage = new Agent({
      name: 'Triage',
      handoffs: [refund],
      model: new ScriptedModel([[fc('transfer_to_refund_agent', {}, 'h1')]]),
    });
    const result = await run(triage, 'refund', { stream: true });
    const labels: string[] = [];
    for await (const e of result) if (e.type !== 'raw_model_stream_event') labels.push(label(e));
    await result.completed;
    expect(labels).toEqual([
      'agent:Triage',
      'item:handoff_requested',
      'item:handoff_occurred',
      'agent:Refund Agent',
      'item:tool_called',
      'item:tool_approval_requested',
    ]);
    expect(result.interruptions).toHaveLength(1);
    expect(result.lastAgent).toBe(refund);
  });

  it('streaming.mdx "Human in the loop while streaming": after completed, interruptions hold the approvals; a resume with { stream: true } streams the rest (also after JSON)', async () => {
    for (const roundTrip of [false, true]) {
      let ran = 0;
      const risky = tool({
        name: 'risky',
        description: '',
        needsApproval: true,
        execute: () => `ran ${++ran}`,
      });
      const agent = new Agent({
        name: 'A',
        tools: [risky],
        model: new ScriptedModel([[fc('risky', {}, 'c1')], [msg('finished')]]),
      });
      const first = await run(agent, 'x', { stream: true });
      for await (const _ of first);
      await first.completed;
      expect(first.interruptions).toHaveLength(1);
      const state = roundTrip
        ? await RunState.fromString(agent, first.state.toString())
        : first.state;
      state.approve(state.getInterruptions()[0]);
      const second = await run(agent, state, { stream: true });
      let text = '';
      for await (const t of second.toTextStream()) text += t;
      await second.completed;
      expect(text).toBe('finished');
      expect(second.finalOutput).toBe('finished');
      expect(ran).toBe(1);
    }
  });

  it('streaming.mdx "Stop a stream and continue the same turn": after a cancel, completed resolves, cancelled is true, and resuming from stream.state finishes the turn without a new user message', async () => {
    const model = new ScriptedModel([{ output: [msg('resumed answer')], delayMs: 200 }], {
      whenExhausted: 'repeat_last',
    });
    const session = new MemorySession();
    const agent = new Agent({ name: 'A', model });
    const result = await run(agent, 'question', { stream: true, session });
    const iterator = result[Symbol.asyncIterator]();
    await iterator.next();
    result.cancel();
    await result.completed;
    expect(result.cancelled).toBe(true);
    expect(result.finalOutput).toBeUndefined();
    const resumed = await run(agent, result.state, { session });
    expect(resumed.finalOutput).toBe('resumed answer');
    expect(keys(model.requests.at(-1)!.input)).toEqual(['message:user']);
    expect(keys(await session.getItems())).toEqual(['message:user', 'message:assistant']);
  });
});
