/**
 * Finer points documented in openai-agents-js `guides/running-agents.mdx` (error handlers, the
 * final-output rule), `results.mdx` (tool output values across RunState JSON, typed outputs
 * across handoffs, usage while streaming) and `human-in-the-loop.mdx` (approval callbacks on
 * malformed arguments), in both modes.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import {
  GuardrailExecutionError,
  MaxTurnsExceededError,
  ModelBehaviorError,
  UserError,
} from '../errors/errors.js';
import { inputGuardrail, outputGuardrail } from '../guardrail/guardrail.js';
import { handoff } from '../handoff/handoff.js';
import type { Item, MessageItem } from '../items/item-types.js';
import type { ToolCallOutputRunItem } from '../items/run-items.js';
import { run } from '../loop/run.js';
import { RunState } from '../run-state/run-state.js';
import { MemorySession } from '../session/memory-session.js';
import { tool } from '../tool/tool.js';

const keys = (items: Item[]) =>
  items.map(
    (i) => `${i.type}:${(i as { call_id?: string }).call_id ?? (i as { role?: string }).role}`,
  );
const refusalMessage = (refusal: string): MessageItem => ({
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'refusal', refusal }],
});

for (const stream of [false, true])
  describe(`documented edges (${stream ? 'streamed' : 'non-streamed'})`, () => {
    it('running-agents.mdx "Error handlers": a handler that returns undefined keeps the default behaviour (maxTurns, invalidFinalOutput, modelRefusal)', async () => {
      const again = tool({ name: 'again', description: '', execute: () => 'more' });
      let asked = 0;
      const looping = await runMode(
        () => ({
          agent: new Agent({
            name: 'L',
            tools: [again],
            model: new ScriptedModel([[fc('again', {})]], { whenExhausted: 'repeat_last' }),
          }),
          input: 'x',
          options: {
            maxTurns: 2,
            errorHandlers: {
              maxTurns: () => {
                asked++;
                return undefined;
              },
            },
          },
        }),
        stream,
      );
      expect(asked).toBe(1);
      expect(looping.error).toBeInstanceOf(MaxTurnsExceededError);
      const outputType = z.object({ n: z.number() });
      const invalid = await runMode(
        () => ({
          agent: new Agent({
            name: 'S',
            outputType,
            model: new ScriptedModel([[msg('not json')]]),
          }),
          input: 'x',
          options: { errorHandlers: { invalidFinalOutput: () => undefined } },
        }),
        stream,
      );
      expect(invalid.error).toBeInstanceOf(ModelBehaviorError);
      const refused = await runMode(
        () => ({
          agent: new Agent({
            name: 'S',
            outputType,
            model: new ScriptedModel([[refusalMessage('I cannot help with that.')]]),
          }),
          input: 'x',
          options: { errorHandlers: { modelRefusal: () => undefined } },
        }),
        stream,
      );
      expect(refused.error).toBeInstanceOf(ModelBehaviorError);
      const handled = await runMode(
        () => ({
          agent: new Agent({
            name: 'S',
            outputType,
            model: new ScriptedModel([[refusalMessage('no')]]),
          }),
          input: 'x',
          options: { errorHandlers: { modelRefusal: () => ({ finalOutput: { n: 0 } }) } },
        }),
        stream,
      );
      expect(handled.result!.finalOutput).toEqual({ n: 0 });
    });

    it('running-agents.mdx "The agent loop" note: a response with text and tool calls is not a final output; the tools run and the model is called again', async () => {
      const t = tool({ name: 'lookup', description: '', execute: () => 'found' });
      const model = new ScriptedModel([
        [msg('Let me check.'), fc('lookup', {}, 'c1')],
        [msg('Here it is.')],
      ]);
      const out = await runMode(
        () => ({ agent: new Agent({ name: 'A', tools: [t], model }), input: 'x' }),
        stream,
      );
      expect(out.result!.finalOutput).toBe('Here it is.');
      expect(keys(model.requests[1].input)).toEqual([
        'message:user',
        'message:assistant',
        'function_call:c1',
        'function_call_output:c1',
      ]);
    });

    it('results.mdx "New items": RunToolCallOutputItem.output is the tool return value and keeps its JSON structure across RunState serialization', async () => {
      const data = tool({
        name: 'data',
        description: '',
        execute: () => ({ ids: [1, 2], ok: true }),
      });
      const risky = tool({
        name: 'risky',
        description: '',
        needsApproval: true,
        execute: () => 'ran',
      });
      const agent = new Agent({
        name: 'A',
        tools: [data, risky],
        model: new ScriptedModel([[fc('data', {}, 'c1')], [fc('risky', {}, 'c2')], [msg('ok')]]),
      });
      const first = await runMode(() => ({ agent, input: 'x' }), stream);
      const outputOf = (items: readonly { type: string }[]) =>
        (items.find((i) => i.type === 'tool_call_output_item') as ToolCallOutputRunItem).output;
      expect(outputOf(first.result!.newItems)).toEqual({ ids: [1, 2], ok: true });
      const state = await RunState.fromString(agent, first.result!.state.toString());
      expect(outputOf(state.generatedItems)).toEqual({ ids: [1, 2], ok: true });
      state.approve(state.getInterruptions()[0]);
      const second = await runMode(() => ({ agent, input: state as any }), stream);
      expect(outputOf(second.result!.newItems)).toEqual({ ids: [1, 2], ok: true });
      expect(second.result!.finalOutput).toBe('ok');
    });

    it('results.mdx "Final output": after a handoff the final output is parsed with the last agent\'s outputType', async () => {
      const ticket = z.object({ ticketId: z.string() });
      const support = new Agent({
        name: 'Support',
        outputType: ticket,
        model: new ScriptedModel([[msg('{"ticketId":"T-1"}')]]),
      });
      const triage = new Agent({
        name: 'Triage',
        handoffs: [support],
        model: new ScriptedModel([[fc('transfer_to_support', {}, 'h1')]]),
      });
      const out = await runMode(() => ({ agent: triage, input: 'x' }), stream);
      expect(out.result!.finalOutput).toEqual({ ticketId: 'T-1' });
      expect(out.result!.lastAgent).toBe(support);
    });

    it('human-in-the-loop.mdx "Flow": a needsApproval function is not called with malformed arguments, and the tool does not run', async () => {
      let asked = 0;
      let ran = 0;
      const t = tool({
        name: 'pay',
        description: '',
        parameters: z.object({ amount: z.number() }),
        needsApproval: () => {
          asked++;
          return true;
        },
        execute: () => {
          ran++;
          return 'paid';
        },
      });
      const model = new ScriptedModel([[fc('pay', '{"amount": oops', 'c1')], [msg('fixed')]]);
      const out = await runMode(
        () => ({ agent: new Agent({ name: 'A', tools: [t], model }), input: 'x' }),
        stream,
      );
      expect(asked).toBe(0);
      expect(ran).toBe(0);
      if (out.result!.interruptions.length > 0) {
        const state = out.result!.state;
        state.approve(state.getInterruptions()[0]);
        await runMode(
          () => ({ agent: new Agent({ name: 'A', tools: [t], model }), input: state as any }),
          stream,
        );
        expect(ran).toBe(0);
      } else {
        expect(out.result!.finalOutput).toBe('fixed');
        expect(JSON.stringify(model.requests[1].input)).toMatch(/Invalid JSON arguments/);
      }
    });
  });

describe('documented: results.mdx "Usage"', () => {
  it('a streamed run’s usage updates as responses arrive, and totals every model call once completed', async () => {
    const t = tool({ name: 't', description: '', execute: () => 'ok' });
    const agent = new Agent({
      name: 'A',
      tools: [t],
      model: new ScriptedModel([
        { output: [fc('t', {}, 'c1')], usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 } },
        { output: [msg('done')], usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7 } },
      ]),
    });
    const result = await run(agent, 'x', { stream: true });
    let midRun: number | undefined;
    for await (const e of result)
      if (e.type === 'run_item_stream_event' && e.name === 'tool_output')
        midRun = result.usage.inputTokens;
    await result.completed;
    expect(midRun).toBe(3);
    expect(result.usage).toMatchObject({ inputTokens: 8, outputTokens: 3, totalTokens: 11 });
    expect(result.state.usage).toEqual(result.usage);
  });
});

for (const stream of [false, true])
  describe(`documented edges, handoffs and tool use (${stream ? 'streamed' : 'non-streamed'})`, () => {
    it('handoffs.mdx note: input guardrails run only for the first agent, output guardrails only for the agent that produces the final output', async () => {
      const ran: string[] = [];
      const guards = (who: string) => ({
        inputGuardrails: [
          inputGuardrail({
            name: `in_${who}`,
            execute: () => {
              ran.push(`in:${who}`);
              return { tripwireTriggered: false, outputInfo: null };
            },
          }),
        ],
        outputGuardrails: [
          outputGuardrail({
            name: `out_${who}`,
            execute: ({ output }) => {
              ran.push(`out:${who}:${output}`);
              return { tripwireTriggered: false, outputInfo: null };
            },
          }),
        ],
      });
      const billing = new Agent({
        name: 'Billing',
        ...guards('billing'),
        model: new ScriptedModel([[msg('paid')]]),
      });
      const triage = new Agent({
        name: 'Triage',
        ...guards('triage'),
        handoffs: [billing],
        model: new ScriptedModel([[fc('transfer_to_billing', {}, 'h1')]]),
      });
      const out = await runMode(() => ({ agent: triage, input: 'x' }), stream);
      expect(out.result!.finalOutput).toBe('paid');
      expect(ran).toEqual(['in:triage', 'out:billing:paid']);
    });

    it('agents.mdx "Preventing infinite loops": \'stop_on_first_tool\' with a tool that needs approval pauses; once approved, its result is the final output without another model call (also after JSON)', async () => {
      for (const roundTrip of [false, true]) {
        const risky = tool({
          name: 'risky',
          description: '',
          needsApproval: true,
          execute: () => 'risky result',
        });
        const model = new ScriptedModel([[fc('risky', {}, 'c1')], [msg('never')]]);
        const agent = new Agent({
          name: 'A',
          tools: [risky],
          model,
          toolUseBehavior: 'stop_on_first_tool',
        });
        const first = await runMode(() => ({ agent, input: 'x' }), stream);
        expect(first.result!.interruptions).toHaveLength(1);
        const state = roundTrip
          ? await RunState.fromString(agent, first.result!.state.toString())
          : first.result!.state;
        state.approve(state.getInterruptions()[0]);
        const second = await runMode(() => ({ agent, input: state as any }), stream);
        expect(second.result!.finalOutput).toBe('risky result');
        expect(model.requests).toHaveLength(1);
      }
    });

    it('handoffs.mdx "Handoff inputs": arguments that do not match inputType never reach onHandoff; the model is told and stays with the current agent', async () => {
      let called = 0;
      const refund = new Agent({
        name: 'Refund',
        model: new ScriptedModel([[msg('refund agent')]]),
      });
      const triageModel = new ScriptedModel([
        [fc('transfer_to_refund', { reason: 42 }, 'h1')],
        [msg('triage retried')],
      ]);
      const triage = new Agent({
        name: 'Triage',
        handoffs: [
          handoff(refund, {
            inputType: z.object({ reason: z.string() }),
            onHandoff: () => void called++,
          }),
        ],
        model: triageModel,
      });
      const out = await runMode(() => ({ agent: triage, input: 'x' }), stream);
      expect(called).toBe(0);
      // Baton answers the call with the validation error so the model can correct it.
      expect(out.result!.lastAgent).toBe(triage);
      expect(out.result!.finalOutput).toBe('triage retried');
      expect(JSON.stringify(triageModel.requests[1].input.at(-1))).toContain('Invalid arguments');
    });

    it('results.mdx "Server-managed continuation": lastResponseId is the id of the last model response; rawResponses holds each one', async () => {
      const t = tool({ name: 't', description: '', execute: () => 'ok' });
      const agent = new Agent({
        name: 'A',
        tools: [t],
        model: new ScriptedModel([
          { output: [fc('t', {}, 'c1')], responseId: 'resp_1' },
          { output: [msg('done')], responseId: 'resp_2' },
        ]),
      });
      const out = await runMode(() => ({ agent, input: 'x' }), stream);
      expect(out.result!.lastResponseId).toBe('resp_2');
      expect(out.result!.rawResponses.map((r) => r.responseId)).toEqual(['resp_1', 'resp_2']);
    });
  });

describe('documented: streaming.mdx "Get the text output"', () => {
  it('stream.completed resolves only after the session holds the turn', async () => {
    const session = new MemorySession();
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[msg('stored answer')]]) });
    const result = await run(agent, 'q', { stream: true, session });
    for await (const _ of result.toTextStream());
    await result.completed;
    expect(keys(await session.getItems())).toEqual(['message:user', 'message:assistant']);
  });
});

for (const stream of [false, true])
  describe(`documented: running-agents.mdx "Exceptions" (${stream ? 'streamed' : 'non-streamed'})`, () => {
    it('a guardrail that throws fails the run with GuardrailExecutionError (the error as cause), input or output', async () => {
      const crash = new Error('Something is wrong!');
      const inputCrash = await runMode(
        () => ({
          agent: new Agent({
            name: 'A',
            model: new ScriptedModel([[msg('never')]]),
            inputGuardrails: [
              inputGuardrail({
                name: 'math_homework',
                execute: () => {
                  throw crash;
                },
              }),
            ],
          }),
          input: 'x',
        }),
        stream,
      );
      expect(inputCrash.error).toBeInstanceOf(GuardrailExecutionError);
      expect((inputCrash.error as Error).cause).toBe(crash);
      expect((inputCrash.error as Error).message).toContain('math_homework');
      // A bad verdict stays a UserError.
      const sloppy = await runMode(
        () => ({
          agent: new Agent({
            name: 'A',
            model: new ScriptedModel([[msg('x')]]),
            outputGuardrails: [outputGuardrail({ name: 'sloppy', execute: () => 'yes' as any })],
          }),
          input: 'x',
        }),
        stream,
      );
      expect(sloppy.error).toBeInstanceOf(UserError);
    });

    it('an output guardrail that crashed is run again from the saved state without another model call (also after JSON); the session gets the output once', async () => {
      for (const roundTrip of [false, true]) {
        let crashes = 1;
        const verdicts: string[] = [];
        const model = new ScriptedModel([[msg('the answer')], [msg('never')]]);
        const session = new MemorySession();
        const agent = new Agent({
          name: 'A',
          model,
          outputGuardrails: [
            outputGuardrail({
              name: 'check',
              execute: ({ output }) => {
                if (crashes-- > 0) throw new Error('Output guardrail crashed.');
                verdicts.push(String(output));
                return { tripwireTriggered: false, outputInfo: null };
              },
            }),
          ],
        });
        const first = await runMode(() => ({ agent, input: 'q', options: { session } }), stream);
        const error = first.error as GuardrailExecutionError;
        expect(error).toBeInstanceOf(GuardrailExecutionError);
        expect(keys(await session.getItems())).toEqual(['message:user']);
        const state = roundTrip
          ? await RunState.fromString(agent, (error.state as RunState).toString())
          : (error.state as RunState);
        const second = await runMode(
          () => ({ agent, input: state as any, options: { session } }),
          stream,
        );
        expect(second.result!.finalOutput).toBe('the answer');
        expect(verdicts).toEqual(['the answer']);
        expect(model.requests).toHaveLength(1);
        expect(keys(await session.getItems())).toEqual(['message:user', 'message:assistant']);
      }
    });
  });
