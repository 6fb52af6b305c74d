/**
 * Details of a turn a user relies on: call ids the model reuses across a resume or from the
 * session history (invariant 2), what the model is told about an unknown tool, a message next
 * to a hosted approval request (not final), invalid handoff arguments, input guardrails on the
 * first turn only, the request's tracing flags and output schema, the input filter's copy,
 * spans (turn numbers, agent data, all ended on failure), the history of an aborted run, a
 * streamed state in use, `errorHandlers`, `runStep` after a handoff, and final-output errors.
 */
import { fc, fco, msg, RecordingTraceProcessor, ScriptedModel } from '@baton/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { ModelBehaviorError, RunAbortedError, UserError } from '../errors/errors.js';
import { inputGuardrail } from '../guardrail/guardrail.js';
import { handoff } from '../handoff/handoff.js';
import type { FunctionCallOutputItem, HostedItem, Item } from '../items/item-types.js';
import { RunState } from '../run-state/run-state.js';
import { MemorySession } from '../session/memory-session.js';
import { type HostedTool, tool } from '../tool/tool.js';
import { setTraceProcessors } from '../tracing/processors.js';
import type { AgentSpanData, TurnSpanData } from '../tracing/span-types.js';
import { run, runStep } from './run.js';

afterEach(() => setTraceProcessors([]));

const user = (content: string): Item => ({ type: 'message', role: 'user', content });
const outputsOf = (input: Item[]) =>
  input.filter((i): i is FunctionCallOutputItem => i.type === 'function_call_output');

function counter(name: string, runs: Record<string, number>, needsApproval = false) {
  return tool({
    name,
    description: '',
    needsApproval,
    execute: (_a, _c, { callId }) => {
      runs[callId] = (runs[callId] ?? 0) + 1;
      return `${name} ran`;
    },
  });
}

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

describe('spans of a run', () => {
  it('turn spans carry the turn number; agent spans the tools, handoffs and output type', async () => {
    const rec = new RecordingTraceProcessor();
    setTraceProcessors([rec]);
    const expert = new Agent({
      name: 'Expert',
      model: new ScriptedModel([[msg('{"n":2}')]]),
      outputType: z.object({ n: z.number() }),
    });
    const agent = new Agent({
      name: 'A',
      model: new ScriptedModel([[fc('step', {}, 'c1')], [fc('transfer_to_expert', {}, 'h1')]]),
      tools: [counter('step', {})],
      handoffs: [expert],
    });
    await run(agent, 'go');
    const data = rec.ended.map((s) => s.data);
    expect(
      data.filter((d): d is TurnSpanData => d.kind === 'turn').map((d) => [d.agentName, d.turn]),
    ).toEqual([
      ['A', 1],
      ['A', 2],
      ['Expert', 3],
    ]);
    expect(data.filter((d): d is AgentSpanData => d.kind === 'agent')).toEqual([
      expect.objectContaining({
        name: 'A',
        tools: ['step'],
        handoffs: ['Expert'],
        outputType: 'text',
      }),
      expect.objectContaining({ name: 'Expert', tools: [], handoffs: [], outputType: 'json' }),
    ]);
  });

  it('a failing run ends every span it started, the failure on the turn and agent spans', async () => {
    const rec = new RecordingTraceProcessor();
    setTraceProcessors([rec]);
    const failing = new ScriptedModel([{ error: new Error('model exploded') }]);
    await expect(run(new Agent({ name: 'A', model: failing }), 'go')).rejects.toThrow(
      'model exploded',
    );
    expect(rec.ended).toHaveLength(rec.started.length);
    const turn = rec.ended.find((s) => s.data.kind === 'turn')!;
    const agentSpan = rec.ended.find((s) => s.data.kind === 'agent')!;
    expect(turn.error?.message).toBe('model exploded');
    expect(agentSpan.error?.message).toBe('model exploded');
  });

  it('a run paused inside an agent used as a tool lists the interruption with its path on the agent span', async () => {
    const rec = new RecordingTraceProcessor();
    setTraceProcessors([rec]);
    const sub = new Agent({
      name: 'Sub',
      tools: [counter('gated', {}, true)],
      model: new ScriptedModel([[fc('gated', {}, 'g1')]]),
    });
    const parent = new Agent({
      name: 'Boss',
      tools: [sub.asTool({ toolName: 'ask_sub' })],
      model: new ScriptedModel([[fc('ask_sub', { input: 'do it' }, 'p1')]]),
    });
    const paused = await run(parent, 'go', { tracing: { includeSensitiveData: false } });
    expect(paused.interruptions).toHaveLength(1);
    const boss = rec.ended.find(
      (s) => s.data.kind === 'agent' && (s.data as AgentSpanData).name === 'Boss',
    )!;
    expect((boss.data as AgentSpanData).interruptions).toEqual([
      { toolName: 'gated', callId: 'g1', kind: 'approval', path: ['p1'] },
    ]);
  });
});

describe('the end of a run', () => {
  it("an aborted run's history is the input and every finished call with its output", async () => {
    const controller = new AbortController();
    const slow = tool({
      name: 'slow',
      description: '',
      execute: (_a, _c, { signal }) =>
        new Promise((r) => signal.addEventListener('abort', () => r('stopped'))),
    });
    const model = new ScriptedModel([[fc('step', {}, 'c1')], [fc('slow', {}, 's1')]]);
    const agent = new Agent({
      name: 'A',
      model,
      tools: [counter('step', {}), slow],
      hooks: {
        onToolStart: (_c, _a, t) => void (t === 'slow' && setTimeout(() => controller.abort(), 5)),
      },
    });
    const error = await run(agent, 'go', { signal: controller.signal }).catch((e) => e);
    expect(error).toBeInstanceOf(RunAbortedError);
    expect(error.history).toEqual([user('go'), fc('step', {}, 'c1'), fco('c1', 'step ran')]);
  });

  it('a streamed run keeps its state in use until it ends: a resume meanwhile is refused', async () => {
    let release!: () => void;
    const hold = new Promise<void>((r) => {
      release = r;
    });
    const waiting = tool({
      name: 'wait',
      description: '',
      execute: async () => (await hold, 'ok'),
    });
    const agent = new Agent({
      name: 'A',
      model: new ScriptedModel([[fc('wait', {}, 'w1')], [msg('done')]]),
      tools: [waiting],
    });
    const streamed = await run(agent, 'go', { stream: true });
    const iterator = streamed[Symbol.asyncIterator]();
    await iterator.next();
    await expect(run(agent, streamed.state)).rejects.toThrow(UserError);
    release();
    for (let e = await iterator.next(); !e.done; e = await iterator.next());
    await streamed.completed;
    expect(streamed.finalOutput).toBe('done');
  });

  it('errorHandlers.maxTurns supplies the final output; a handler returning something else is a UserError', async () => {
    const looping = () =>
      new Agent({
        name: 'A',
        model: new ScriptedModel([[fc('step', {}, undefined as any)]], {
          whenExhausted: 'repeat_last',
        }),
        tools: [counter('step', {})],
      });
    const result = await run(looping(), 'go', {
      maxTurns: 2,
      errorHandlers: {
        maxTurns: (_c, { maxTurns }) => ({ finalOutput: `stopped after ${maxTurns}` }),
      },
    });
    expect(result.finalOutput).toBe('stopped after 2');
    await expect(
      run(looping(), 'go', { maxTurns: 1, errorHandlers: { maxTurns: () => 'nope' as never } }),
    ).rejects.toThrow(new UserError('errorHandlers.maxTurns must return { finalOutput }.'));
  });

  it('run() and runStep() refuse a first argument that is not an Agent', async () => {
    for (const bad of [undefined, {}, 'agent']) {
      await expect(run(bad as any, 'x')).rejects.toThrow(
        new UserError('run() and runStep() take an Agent as their first argument.'),
      );
      await expect(runStep(bad as any, 'x')).rejects.toThrow(
        new UserError('run() and runStep() take an Agent as their first argument.'),
      );
    }
  });
});

describe('final output errors name the agent (both modes)', () => {
  const refusal = (text: string): Item => ({
    type: 'message',
    role: 'assistant',
    content: [{ type: 'refusal', refusal: text }],
    status: 'completed',
  });
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';
    const typed = (reply: Item) =>
      new Agent({
        name: 'Typed',
        outputType: z.object({ n: z.number() }),
        model: new ScriptedModel([[reply]]),
      });

    it(`a refusal, text that is no JSON, and JSON of the wrong shape (${mode})`, async () => {
      const refused = await runMode(
        () => ({ agent: typed(refusal('I will not.')), input: 'x' }),
        stream,
      );
      expect(refused.error).toBeInstanceOf(ModelBehaviorError);
      expect((refused.error as Error).message).toBe(
        'Agent "Typed": the model refused to produce the structured output: I will not.',
      );
      const prose = await runMode(() => ({ agent: typed(msg('just words')), input: 'x' }), stream);
      expect((prose.error as Error).message).toMatch(
        /^Agent "Typed": the final output is not valid JSON \(.+\)\. Raw text is on error\.rawText\.$/,
      );
      expect((prose.error as ModelBehaviorError & { rawText: string }).rawText).toBe('just words');
      const wrong = await runMode(() => ({ agent: typed(msg('{"n":"one"}')), input: 'x' }), stream);
      expect((wrong.error as Error).message).toMatch(
        /^Agent "Typed": the final output does not match its outputType:\n/,
      );
    });

    it(`a text answer that merely starts empty is no refusal; invalidFinalOutput may answer instead (${mode})`, async () => {
      const text = new Agent({
        name: 'Plain',
        model: new ScriptedModel([
          [{ ...msg(''), content: [{ type: 'output_text', text: '' }] } as Item],
        ]),
      });
      const empty = await runMode(
        () => ({
          agent: text,
          input: 'x',
          options: { errorHandlers: { modelRefusal: () => ({ finalOutput: 'refused' }) } },
        }),
        stream,
      );
      expect(empty.result!.finalOutput).toBe('');
      const handled = await runMode(
        () => ({
          agent: typed(msg('just words')),
          input: 'x',
          options: {
            errorHandlers: {
              invalidFinalOutput: (_c, { rawText }) => ({ finalOutput: { n: rawText.length } }),
            },
          },
        }),
        stream,
      );
      expect(handled.result!.finalOutput).toEqual({ n: 10 });
    });
  }
});
