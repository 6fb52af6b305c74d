/**
 * `toolErrorFormatter` (openai-agents-js parity): the message the model sees for a rejected call
 * (a per-call `reject` message wins) and for a call of a tool the agent does not have
 * (`toolNotFound: 'return_error_to_model'`). `undefined` keeps the default; a formatter that
 * throws or returns a non-string gets the default, with a warning on the run's logger. Both
 * modes; approval rejections after a `RunState` JSON round trip.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runIn } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { ModelBehaviorError, RunAbortedError } from '../errors/errors.js';
import type { Item } from '../items/item-types.js';
import { RunState } from '../run-state/run-state.js';
import { tool } from '../tool/tool.js';
import { DEFAULT_REJECTION_TEXT } from './execute-tools.js';
import type { RunLogger, ToolErrorFormatter, ToolErrorFormatterArgs } from './run-options.js';

const outputOf = (input: Item[], callId: string) =>
  input.find((i) => i.type === 'function_call_output' && i.call_id === callId) as
    | { output: string }
    | undefined;

function refundWorld() {
  let runs = 0;
  const refund = tool({
    name: 'refund',
    description: 'Refund an order',
    parameters: z.object({ id: z.string() }),
    needsApproval: true,
    execute: () => {
      runs++;
      return 'refunded';
    },
  });
  const model = new ScriptedModel([[fc('refund', { id: '42' }, 'c1')], [msg('Understood.')]]);
  const agent = new Agent({ name: 'Support', model, tools: [refund] });
  return { agent, model, runs: () => runs };
}

/** Pauses on the approval, rejects it after a JSON round trip, resumes with `options`. */
async function rejectAndResume(
  stream: boolean,
  options: { toolErrorFormatter?: ToolErrorFormatter; logger?: RunLogger },
  message?: string,
) {
  const w = refundWorld();
  const paused = await runIn(w.agent, 'refund order 42', {}, stream);
  expect(paused.interruptions.map((i) => i.call_id)).toEqual(['c1']);
  const state = await RunState.fromString(w.agent, paused.state.toString());
  state.reject(state.getInterruptions()[0], message === undefined ? {} : { message });
  const resumed = await runIn(w.agent, state, options, stream);
  expect(resumed.finalOutput).toBe('Understood.');
  expect(w.runs()).toBe(0);
  return { output: outputOf(w.model.requests[1].input, 'c1')?.output, resumed };
}

function recordingLogger() {
  const warnings: unknown[][] = [];
  return { logger: { warn: (...args: unknown[]) => void warnings.push(args) }, warnings };
}

describe('toolErrorFormatter: approval rejections', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`formats a call rejected on a resumed RunState (after fromString), async (${mode})`, async () => {
      const seen: ToolErrorFormatterArgs[] = [];
      const { output, resumed } = await rejectAndResume(stream, {
        toolErrorFormatter: async (args) => {
          seen.push(args);
          await null;
          return `Refunds need a manager (${args.toolName}, ${args.callId}).`;
        },
      });
      expect(output).toBe('Refunds need a manager (refund, c1).');
      expect(seen).toHaveLength(1);
      const { runContext, ...rest } = seen[0];
      expect(rest).toEqual({
        kind: 'approval_rejected',
        toolType: 'function',
        toolName: 'refund',
        callId: 'c1',
        defaultMessage: DEFAULT_REJECTION_TEXT,
      });
      expect(runContext).toBe(resumed.state.context);
      // The formatted text is what the run recorded (history, session) too.
      expect(JSON.stringify(resumed.history)).toContain('Refunds need a manager');
    });

    it(`a per-call reject message wins; the formatter is not called (${mode})`, async () => {
      let calls = 0;
      const { output } = await rejectAndResume(
        stream,
        { toolErrorFormatter: () => `formatted ${++calls}` },
        'Not today.',
      );
      expect(output).toBe('Not today.');
      expect(calls).toBe(0);
    });

    it(`undefined keeps the default message, without a warning (${mode})`, async () => {
      const { logger, warnings } = recordingLogger();
      const { output } = await rejectAndResume(stream, {
        toolErrorFormatter: () => undefined,
        logger,
      });
      expect(output).toBe(DEFAULT_REJECTION_TEXT);
      expect(warnings).toEqual([]);
    });

    it(`a formatter that throws (sync or async) gets the default message and a warning (${mode})`, async () => {
      for (const toolErrorFormatter of [
        () => {
          throw new Error('formatter broke');
        },
        async () => Promise.reject(new Error('formatter broke')),
      ] as ToolErrorFormatter[]) {
        const { logger, warnings } = recordingLogger();
        const { output } = await rejectAndResume(stream, { toolErrorFormatter, logger });
        expect(output).toBe(DEFAULT_REJECTION_TEXT);
        expect(warnings).toHaveLength(1);
        expect(String(warnings[0][0])).toContain('toolErrorFormatter threw');
        expect((warnings[0][1] as Error).message).toBe('formatter broke');
      }
    });

    it(`a formatter returning a non-string gets the default message and a warning (${mode})`, async () => {
      for (const value of [42, null, { text: 'x' }]) {
        const { logger, warnings } = recordingLogger();
        const { output } = await rejectAndResume(stream, {
          toolErrorFormatter: (() => value) as unknown as ToolErrorFormatter,
          logger,
        });
        expect(output).toBe(DEFAULT_REJECTION_TEXT);
        expect(warnings).toHaveLength(1);
        expect(String(warnings[0][0])).toContain('not a string');
      }
    });

    it(`an abort ends a hung formatter; the resumed state formats the call once (${mode})`, async () => {
      const w = refundWorld();
      const paused = await runIn(w.agent, 'refund order 42', {}, stream);
      const state = await RunState.fromString(w.agent, paused.state.toString());
      state.reject(state.getInterruptions()[0]);
      const controller = new AbortController();
      let calls = 0;
      const toolErrorFormatter: ToolErrorFormatter = () => {
        if (++calls > 1) return 'Rejected by policy.';
        setTimeout(() => controller.abort(), 0);
        return new Promise<string>(() => {});
      };
      const error = await runIn(
        w.agent,
        state,
        { toolErrorFormatter, signal: controller.signal },
        stream,
      ).catch((e) => e);
      expect(error).toBeInstanceOf(RunAbortedError);
      const again = await RunState.fromString(w.agent, (error.state as RunState).toString());
      const resumed = await runIn(w.agent, again, { toolErrorFormatter }, stream);
      expect(calls).toBe(2);
      expect(resumed.finalOutput).toBe('Understood.');
      const outputs = resumed.history.filter((i) => i.type === 'function_call_output');
      expect(outputs).toEqual([
        expect.objectContaining({ call_id: 'c1', output: 'Rejected by policy.' }),
      ]);
    });
  }
});

describe('toolErrorFormatter: unknown tools', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';
    const ghostWorld = () => {
      const model = new ScriptedModel([
        [fc('lookup', { id: '1' }, 'c1'), fc('ghost', {}, 'c2')],
        [msg('Recovered.')],
      ]);
      const lookup = tool({
        name: 'lookup',
        description: 'Look up',
        parameters: z.object({ id: z.string() }),
        execute: () => 'found',
      });
      return { model, agent: new Agent({ name: 'A', model, tools: [lookup] }) };
    };
    const defaultText =
      'Error: tool "ghost" not found. Available tools: lookup. Call one of these.';

    it(`formats the output of a call to a tool the agent does not have (${mode})`, async () => {
      const { model, agent } = ghostWorld();
      const seen: Omit<ToolErrorFormatterArgs, 'runContext'>[] = [];
      const result = await runIn(
        agent,
        'go',
        {
          toolNotFound: 'return_error_to_model',
          toolErrorFormatter: ({ runContext: _, ...args }) => {
            seen.push(args);
            return `No tool named ${args.toolName}; use lookup.`;
          },
        },
        stream,
      );
      expect(result.finalOutput).toBe('Recovered.');
      expect(seen).toEqual([
        {
          kind: 'tool_not_found',
          toolType: 'function',
          toolName: 'ghost',
          callId: 'c2',
          defaultMessage: defaultText,
        },
      ]);
      const input = model.requests[1].input;
      expect(outputOf(input, 'c2')?.output).toBe('No tool named ghost; use lookup.');
      expect(outputOf(input, 'c1')?.output).toBe('found');
      // Outputs in call order, each once.
      const ids = input.flatMap((i) => (i.type === 'function_call_output' ? [i.call_id] : []));
      expect(ids).toEqual(['c1', 'c2']);
    });

    it(`undefined, a throw or a non-string keep the default text (${mode})`, async () => {
      for (const toolErrorFormatter of [
        () => undefined,
        () => {
          throw new Error('x');
        },
        () => 7,
      ] as unknown as ToolErrorFormatter[]) {
        const { model, agent } = ghostWorld();
        const { logger } = recordingLogger();
        await runIn(
          agent,
          'go',
          { toolNotFound: 'return_error_to_model', toolErrorFormatter, logger },
          stream,
        );
        expect(outputOf(model.requests[1].input, 'c2')?.output).toBe(defaultText);
      }
    });

    it(`with toolNotFound 'raise' the run fails and the formatter is not called (${mode})`, async () => {
      const { agent } = ghostWorld();
      let calls = 0;
      const error = await runIn(
        agent,
        'go',
        { toolErrorFormatter: () => `${++calls}` },
        stream,
      ).catch((e) => e);
      expect(error).toBeInstanceOf(ModelBehaviorError);
      expect(calls).toBe(0);
    });
  }
});
