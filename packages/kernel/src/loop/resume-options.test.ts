import { readFileSync } from 'node:fs';
import { fc, msg, RecordingTraceProcessor, ScriptedModel } from '@baton/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runMode } from '../__tests__/both-modes.js';
import { buildDesk } from '../__tests__/support-desk.js';
import { Agent } from '../agent/agent.js';
import { MaxTurnsExceededError } from '../errors/errors.js';
import { RunState } from '../run-state/run-state.js';
import { tool } from '../tool/tool.js';
import { setTraceProcessors } from '../tracing/processors.js';
import type { GenerationSpanData } from '../tracing/span-types.js';
import { run } from './run.js';

afterEach(() => setTraceProcessors([]));

/** A model that calls `tick` `calls` times, then answers. */
function ticker(calls: number) {
  const script: any[] = [];
  for (let i = 0; i < calls; i++) script.push([fc('tick', {}, `t${i}`)]);
  script.push([msg('done ticking')]);
  const model = new ScriptedModel(script);
  const tick = tool({ name: 'tick', description: '', execute: () => 'ok' });
  return { agent: new Agent({ name: 'Ticker', tools: [tick], model }), model };
}

function gated() {
  const model = new ScriptedModel([[fc('wipe', {}, 'w1')], [msg('wiped')]]);
  const wipe = tool({ name: 'wipe', description: '', needsApproval: true, execute: () => 'ok' });
  return { agent: new Agent({ name: 'Ops', tools: [wipe], model }), model };
}

describe('maxTurns can be turned off', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';
    for (const maxTurns of [null, Number.POSITIVE_INFINITY]) {
      it(`maxTurns: ${maxTurns} runs past 10 turns (${mode})`, async () => {
        const { agent, model } = ticker(14);
        const { result, error } = await runMode(
          () => ({ agent, input: 'go', options: { maxTurns } }),
          stream,
        );
        expect(error).toBeUndefined();
        expect(result!.finalOutput).toBe('done ticking');
        expect(model.requests).toHaveLength(15);
        expect(result!.state.maxTurns).toBeNull();
      });
    }

    it(`undefined means the default of 10 (${mode})`, async () => {
      const { agent } = ticker(14);
      const { error } = await runMode(() => ({ agent, input: 'go' }), stream);
      expect(error).toBeInstanceOf(MaxTurnsExceededError);
      expect((error as MaxTurnsExceededError).maxTurns).toBe(10);
    });

    it(`a RunState keeps "no limit" through JSON; a resume may set a limit again (${mode})`, async () => {
      const { agent } = gated();
      const first = (
        await runMode(() => ({ agent, input: 'go', options: { maxTurns: null } }), stream)
      ).result!;
      const json = first.state.toString();
      expect(JSON.parse(json).maxTurns).toBeNull();
      const state = await RunState.fromString(agent, json);
      expect(state.maxTurns).toBeNull();
      state.approve(state.getInterruptions()[0]);
      const again = await RunState.fromString(agent, state.toString());
      const second = await runMode(
        () => ({ agent, input: again as any, options: { maxTurns: 1 } }),
        stream,
      );
      expect(second.error).toBeInstanceOf(MaxTurnsExceededError);
    });
  }
});

describe('resume honours the options of the resuming run', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`traceId, workflowName, groupId and traceMetadata given to the resume win (${mode})`, async () => {
      const rec = new RecordingTraceProcessor();
      setTraceProcessors([rec]);
      const { agent } = gated();
      const first = await runMode(
        () => ({
          agent,
          input: 'go',
          options: {
            traceId: 'trace_first',
            workflowName: 'First',
            groupId: 'g1',
            traceMetadata: { a: 1 },
          },
        }),
        stream,
      );
      const state = await RunState.fromString(agent, first.result!.state.toString());
      state.approve(state.getInterruptions()[0]);
      await runMode(
        () => ({
          agent,
          input: state as any,
          options: {
            traceId: 'trace_second',
            workflowName: 'Second',
            groupId: 'g2',
            traceMetadata: { b: 2 },
          },
        }),
        stream,
      );
      expect(rec.traces.map((t) => [t.traceId, t.name, t.groupId, t.metadata])).toEqual([
        ['trace_first', 'First', 'g1', { a: 1 }],
        ['trace_second', 'Second', 'g2', { b: 2 }],
      ]);
    });

    it(`without trace options a resume continues the stored trace; a field given alone replaces only itself (${mode})`, async () => {
      const rec = new RecordingTraceProcessor();
      setTraceProcessors([rec]);
      const { agent } = gated();
      const first = await runMode(
        () => ({
          agent,
          input: 'go',
          options: { traceId: 'trace_keep', workflowName: 'Flow', groupId: 'g' },
        }),
        stream,
      );
      const state = await RunState.fromString(agent, first.result!.state.toString());
      state.approve(state.getInterruptions()[0]);
      await runMode(
        () => ({ agent, input: state as any, options: { workflowName: 'Renamed' } }),
        stream,
      );
      expect(rec.traces.map((t) => [t.traceId, t.name, t.groupId])).toEqual([
        ['trace_keep', 'Flow', 'g'],
        ['trace_keep', 'Renamed', 'g'],
      ]);
    });

    it(`the tracing option is kept for a resume without one and replaced by a resume with one (${mode})`, async () => {
      const rec = new RecordingTraceProcessor();
      setTraceProcessors([rec]);
      const { agent } = gated();
      const first = await runMode(
        () => ({ agent, input: 'go', options: { tracing: { includeSensitiveData: false } } }),
        stream,
      );
      const state = await RunState.fromString(agent, first.result!.state.toString());
      state.approve(state.getInterruptions()[0]);
      const resumed = await runMode(() => ({ agent, input: state as any }), stream);
      const generations = rec.started.filter((s) => s.data.kind === 'generation');
      expect(generations).toHaveLength(2);
      for (const g of generations) expect((g.data as GenerationSpanData).input).toBeUndefined();
      // A later run from the same history with tracing disabled records nothing more.
      const { agent: other } = gated();
      const paused = (await runMode(() => ({ agent: other, input: 'go' }), stream)).result!;
      paused.state.approve(paused.interruptions[0]);
      const before = rec.traces.length;
      await runMode(
        () => ({
          agent: other,
          input: paused.state as any,
          options: { tracing: { disabled: true } },
        }),
        stream,
      );
      expect(rec.traces).toHaveLength(before);
      expect(resumed.result!.finalOutput).toBe('wiped');
    });
  }
});

describe('RunState keeps raw responses', () => {
  it('rawResponses keep their output and model name through a JSON round trip', async () => {
    const model = new ScriptedModel([
      { output: [fc('wipe', {}, 'w1')], responseId: 'resp_1' },
      [msg('ok')],
    ]);
    const wipe = tool({
      name: 'wipe',
      description: '',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'x',
    });
    const agent = new Agent({ name: 'Ops', tools: [wipe], model });
    const first = await run(agent, 'go');
    const state = await RunState.fromString(agent, first.state.toString());
    expect(state.modelResponses).toEqual([
      {
        output: [fc('wipe', {}, 'w1')],
        usage: first.rawResponses[0].usage,
        responseId: 'resp_1',
        modelName: 'scripted',
      },
    ]);
    state.approve(state.getInterruptions()[0]);
    const second = await run(agent, state);
    expect(second.rawResponses.map((r) => r.output.map((i) => i.type))).toEqual([
      ['function_call'],
      ['message'],
    ]);
  });

  it('a 1.0 state (responses without output) loads with empty outputs; a 1.1 state keeps "no limit"', async () => {
    const dir = new URL('../run-state/__fixtures__/run-state/', import.meta.url);
    const v10 = await RunState.fromString(
      buildDesk().triage,
      readFileSync(new URL('v1.0-support-desk-approval.json', dir), 'utf8'),
    );
    expect(v10.maxTurns).toBe(10);
    expect(v10.modelResponses.every((r) => Array.isArray(r.output) && r.output.length === 0)).toBe(
      true,
    );
    const v11 = await RunState.fromString(
      buildDesk().triage,
      readFileSync(new URL('v1.1-support-desk-approval-no-turn-limit.json', dir), 'utf8'),
    );
    expect(v11.maxTurns).toBeNull();
    expect(v11.tracing).toEqual({ includeSensitiveData: false });
    expect(v11.modelResponses.map((r) => r.output.length)).toEqual([2, 2, 1]);
  });
});
