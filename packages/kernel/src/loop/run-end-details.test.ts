/**
 * More details of a run a user relies on (see turn-details.test.ts for the turn itself): spans
 * (turn numbers, agent data, all ended on failure), the history of an aborted run, a streamed
 * state in use, `errorHandlers`, run()/runStep() argument checks, and final-output errors.
 */
import { fc, fco, msg, RecordingTraceProcessor, ScriptedModel } from '@baton/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { ModelBehaviorError, RunAbortedError, UserError } from '../errors/errors.js';
import type { Item } from '../items/item-types.js';
import { tool } from '../tool/tool.js';
import { setTraceProcessors } from '../tracing/processors.js';
import type { AgentSpanData, TurnSpanData } from '../tracing/span-types.js';
import { counter, user } from './__fixtures__/turn-helpers.js';
import { run, runStep } from './run.js';

afterEach(() => setTraceProcessors([]));

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
