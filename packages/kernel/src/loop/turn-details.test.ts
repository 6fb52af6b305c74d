/**
 * Details of a turn a user relies on: call ids the model reuses across a resume or from the
 * session history (invariant 2), what the model is told about an unknown tool, a message next
 * to a hosted approval request (not final), invalid handoff arguments, input guardrails on the
 * first turn only, the request's tracing flags and output schema, the input filter's copy, and
 * `runStep` after a handoff (spans and the end of a run: run-end-details.test.ts).
 */
import { fc, fco, msg, RecordingTraceProcessor, ScriptedModel } from '@baton/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { inputGuardrail } from '../guardrail/guardrail.js';
import { handoff } from '../handoff/handoff.js';
import type { HostedItem, Item } from '../items/item-types.js';
import { RunState } from '../run-state/run-state.js';
import { MemorySession } from '../session/memory-session.js';
import type { HostedTool } from '../tool/tool.js';
import { setTraceProcessors } from '../tracing/processors.js';
import { counter, outputsOf, user } from './__fixtures__/turn-helpers.js';
import { runStep } from './run.js';

afterEach(() => setTraceProcessors([]));

describe('invariant 2 across a resume and a session (both modes)', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`a call id from an earlier turn reused after a pause and JSON round trip is renamed and run once (${mode})`, async () => {
      const runs: Record<string, number> = {};
      const model = new ScriptedModel([
        [fc('step', {}, 'c1')],
        [fc('gated', {}, 'g1')],
        [fc('step', {}, 'c1')],
        [msg('done')],
      ]);
      const agent = new Agent({
        name: 'A',
        model,
        tools: [counter('step', runs), counter('gated', runs, true)],
      });
      const paused = (await runMode(() => ({ agent, input: 'go' }), stream)).result!;
      const state = await RunState.fromString(agent, paused.state.toString());
      state.approve(state.getInterruptions()[0]);
      const done = (await runMode(() => ({ agent, input: state as any }), stream)).result!;
      expect(done.finalOutput).toBe('done');
      expect(runs).toEqual({ c1: 1, g1: 1, 't3.0': 1 });
      expect(outputsOf(model.requests[3].input).map((o) => o.call_id)).toEqual([
        'c1',
        'g1',
        't3.0',
      ]);
    });

    it(`a call id already in the session history is renamed (${mode})`, async () => {
      const runs: Record<string, number> = {};
      const session = new MemorySession({
        initialItems: [user('earlier'), fc('step', {}, 'c1'), fco('c1', 'old'), msg('ok')],
      });
      const model = new ScriptedModel([[fc('step', {}, 'c1')], [msg('done')]]);
      const agent = new Agent({ name: 'A', model, tools: [counter('step', runs)] });
      await runMode(() => ({ agent, input: 'again', options: { session } }), stream);
      expect(runs).toEqual({ 't1.0': 1 });
    });
  }
});

describe('unknown tools and odd responses (both modes)', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`toolNotFound: 'return_error_to_model' lists the available tools and handoffs, or says none (${mode})`, async () => {
      const expert = new Agent({ name: 'Expert' });
      const model = new ScriptedModel([[fc('nope', {}, 'x1')], [msg('sorry')]]);
      const agent = new Agent({
        name: 'A',
        model,
        tools: [counter('step', {})],
        handoffs: [expert],
      });
      const options = { toolNotFound: 'return_error_to_model' as const };
      await runMode(() => ({ agent, input: 'go', options }), stream);
      expect(outputsOf(model.requests[1].input)[0].output).toBe(
        'Error: tool "nope" not found. Available tools: step, transfer_to_expert. Call one of these.',
      );
      const bare = new ScriptedModel([[fc('nope', {}, 'x1')], [msg('sorry')]]);
      await runMode(
        () => ({ agent: new Agent({ name: 'B', model: bare }), input: 'go', options }),
        stream,
      );
      expect(outputsOf(bare.requests[1].input)[0].output).toBe(
        'Error: tool "nope" not found. Available tools: (none). Call one of these.',
      );
    });

    it(`a message next to a hosted approval request the tool decides is not the final output: the model hears the answer (${mode})`, async () => {
      const hosted: HostedTool = {
        type: 'hosted_tool',
        name: 'mcp_files',
        providerId: 'openai',
        providerData: { type: 'mcp', server_label: 'files' },
        onApproval: () => ({ approve: true }),
      };
      const request: HostedItem = {
        type: 'mcp_approval_request',
        id: 'mcpr_1',
        name: 'read',
        arguments: '{}',
        server_label: 'files',
      };
      const model = new ScriptedModel([[msg('Let me check.'), request], [msg('It says hello.')]]);
      const agent = new Agent({ name: 'A', model, tools: [hosted] });
      const outcome = await runMode(() => ({ agent, input: 'read it' }), stream);
      expect(outcome.result!.finalOutput).toBe('It says hello.');
      expect(model.requests).toHaveLength(2);
    });

    it(`a reasoning item becomes a reasoning run item; a non-assistant message is no final output (${mode})`, async () => {
      const model = new ScriptedModel([
        [{ type: 'reasoning', summary: [{ type: 'summary_text', text: 'hmm' }] }, msg('answer')],
      ]);
      const outcome = await runMode(
        () => ({ agent: new Agent({ name: 'A', model }), input: 'q' }),
        stream,
      );
      expect(outcome.result!.newItems.map((i) => i.type)).toEqual([
        'reasoning_item',
        'message_output_item',
      ]);
      const odd = new ScriptedModel([[msg('final'), msg('an echo', 'user')]]);
      const echoed = await runMode(
        () => ({ agent: new Agent({ name: 'B', model: odd }), input: 'q' }),
        stream,
      );
      expect(echoed.result!.finalOutput).toBe('final');
    });
  }
});

describe('handoffs (both modes)', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`invalid handoff arguments: the model sees why, the current agent goes on (${mode})`, async () => {
      const expertModel = new ScriptedModel([[msg('expert here')]]);
      const expert = new Agent({ name: 'Expert', model: expertModel });
      const model = new ScriptedModel([
        [fc('transfer_to_expert', '{not json', 'h1')],
        [msg('stayed')],
      ]);
      const reasons: string[] = [];
      const typed = handoff(expert, {
        inputType: z.object({ reason: z.string() }),
        onHandoff: (_c, { reason }) => void reasons.push(reason),
      });
      const agent = new Agent({ name: 'A', model, handoffs: [typed] });
      const outcome = await runMode(() => ({ agent, input: 'go' }), stream);
      expect(reasons).toEqual([]);
      expect(outcome.result!.finalOutput).toBe('stayed');
      expect(outcome.result!.lastAgent.name).toBe('A');
      expect(outputsOf(model.requests[1].input)[0].output).toMatch(
        /^Invalid JSON arguments for tool "transfer_to_expert"/,
      );
      expect(expertModel.requests).toHaveLength(0);
    });

    it(`the target agent's onHandoff hook runs, after the run hook (${mode})`, async () => {
      const log: string[] = [];
      const expert = new Agent({
        name: 'Expert',
        model: new ScriptedModel([[msg('expert here')]]),
        hooks: { onHandoff: (_c, from, to) => void log.push(`agent:${from.name}->${to.name}`) },
      });
      const agent = new Agent({
        name: 'A',
        model: new ScriptedModel([[fc('transfer_to_expert', {}, 'h1')]]),
        handoffs: [expert],
      });
      const hooks = {
        onHandoff: (_c: unknown, from: Agent, to: Agent) =>
          void log.push(`run:${from.name}->${to.name}`),
      };
      const outcome = await runMode(
        () => ({ agent, input: 'go', options: { hooks } as any }),
        stream,
      );
      expect(outcome.result!.finalOutput).toBe('expert here');
      expect(log).toEqual(['run:A->Expert', 'agent:A->Expert']);
    });
  }

  it('runStep stops after a handoff turn: the new agent is not called in that step', async () => {
    const expertModel = new ScriptedModel([[msg('expert here')]]);
    const expert = new Agent({ name: 'Expert', model: expertModel });
    const agent = new Agent({
      name: 'A',
      model: new ScriptedModel([[fc('transfer_to_expert', {}, 'h1')]]),
      handoffs: [expert],
    });
    const step = await runStep(agent, 'go');
    expect(step.nextStep).toBe('handoff');
    expect(step.result.lastAgent.name).toBe('Expert');
    expect(expertModel.requests).toHaveLength(0);
    const next = await runStep(agent, step.result.state);
    expect(next.nextStep).toBe('final_output');
    expect(next.result.finalOutput).toBe('expert here');
  });
});

describe('the request of a turn (both modes)', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`input guardrails run on the first turn only (${mode})`, async () => {
      let judged = 0;
      const guard = inputGuardrail({
        name: 'g',
        execute: () => (++judged, { tripwireTriggered: false }),
      });
      const blocking = inputGuardrail({
        name: 'b',
        execute: () => (++judged, { tripwireTriggered: false }),
      });
      (blocking as { runInParallel: boolean }).runInParallel = false;
      const model = new ScriptedModel([[fc('step', {}, 'c1')], [msg('done')]]);
      const agent = new Agent({
        name: 'A',
        model,
        tools: [counter('step', {})],
        inputGuardrails: [guard, blocking],
      });
      await runMode(() => ({ agent, input: 'go' }), stream);
      expect(judged).toBe(2);
      expect(model.requests).toHaveLength(2);
    });

    it(`tells the model whether the call is traced and with what data; sends the output schema (${mode})`, async () => {
      const model = new ScriptedModel([[msg('{"n":1}')]], { whenExhausted: 'repeat_last' });
      const agent = new Agent({ name: 'A', model, outputType: z.object({ n: z.number() }) });
      await runMode(() => ({ agent, input: 'q' }), stream);
      setTraceProcessors([new RecordingTraceProcessor()]);
      await runMode(
        () => ({ agent, input: 'q', options: { tracing: { includeSensitiveData: false } } }),
        stream,
      );
      await runMode(
        () => ({ agent, input: 'q', options: { tracing: { includeSensitiveData: true } } }),
        stream,
      );
      expect(model.requests.map((r) => r.tracing)).toEqual([
        { enabled: false, includeSensitiveData: false },
        { enabled: true, includeSensitiveData: false },
        { enabled: true, includeSensitiveData: true },
      ]);
      expect(model.requests[0].outputSchema).toMatchObject({
        name: expect.any(String),
        strict: true,
        schema: expect.objectContaining({ type: 'object', required: ['n'] }),
      });
    });

    it(`callModelInputFilter gets a copy: emptying it in place loses no history (${mode})`, async () => {
      const model = new ScriptedModel([[fc('step', {}, 'c1')], [msg('done')]]);
      const agent = new Agent({ name: 'A', model, tools: [counter('step', {})] });
      const options = {
        callModelInputFilter: ({ input }: { input: Item[] }) => {
          const kept = [...input];
          input.length = 0;
          return { input: kept };
        },
      };
      await runMode(() => ({ agent, input: 'go', options }), stream);
      expect(model.requests[1].input.map((i) => i.type)).toEqual([
        'message',
        'function_call',
        'function_call_output',
      ]);
    });
  }
});
