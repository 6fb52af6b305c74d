/**
 * A tool that throws: the model sees the redacted text (invariant 7), the developer sees the real
 * error — `onToolError` (run and agent hooks), the function span's error data (message, class and
 * stack only when sensitive data is included), and the `logger` option / `BATON_DEBUG=1`.
 */
import { fc, msg, RecordingTraceProcessor, ScriptedModel } from '@baton/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Agent } from '../agent/agent.js';
import type { RunHooks } from '../agent/hooks.js';
import { ToolCallError, ToolTimeoutError } from '../errors/errors.js';
import type { FunctionCallOutputItem } from '../items/item-types.js';
import { REDACTED_TOOL_ERROR, tool } from '../tool/tool.js';
import { setTraceProcessors } from '../tracing/processors.js';
import type { FunctionSpanData } from '../tracing/span-types.js';
import { run } from './run.js';
import type { RunOptions } from './run-options.js';

class LedgerDown extends Error {}

function failing(
  options: { errorFunction?: null; timeoutMs?: number; timeoutBehavior?: 'raise' } = {},
) {
  const log: string[] = [];
  const errors: unknown[] = [];
  const model = new ScriptedModel([[fc('refund', {}, 'c1')], [msg('sorry')]]);
  const refund = tool({
    name: 'refund',
    description: '',
    ...options,
    execute: async () => {
      if (options.timeoutMs) await new Promise((r) => setTimeout(r, 200));
      throw new LedgerDown('ledger db password=hunter2 refused the write');
    },
  });
  const hooks = (who: string): RunHooks => ({
    onToolStart: () => void log.push(`${who}:start`),
    onToolError: (_ctx, agent, name, call, error) => {
      log.push(`${who}:error:${agent.name}:${name}:${call.call_id}`);
      errors.push(error);
    },
    onToolEnd: (_ctx, _a, _n, _c, output) => void log.push(`${who}:end:${String(output)}`),
  });
  const agent = new Agent({ name: 'Desk', tools: [refund], model, hooks: hooks('agent') });
  return { agent, model, log, errors, runHooks: hooks('run') };
}

async function drive(agent: Agent, options: RunOptions, stream: boolean) {
  if (!stream) return run(agent, 'refund', options);
  const result = await run(agent, 'refund', { ...options, stream: true });
  for await (const _ of result);
  await result.completed;
  return result;
}

afterEach(() => {
  setTraceProcessors([]);
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

for (const stream of [false, true]) {
  const mode = stream ? 'streamed' : 'non-streamed';
  describe(`a tool that throws (${mode})`, () => {
    it('onToolError gets the real error (run hooks, then agent hooks); the model the redacted text', async () => {
      const { agent, model, log, errors, runHooks } = failing();
      await drive(agent, { hooks: runHooks }, stream);
      expect(log).toEqual([
        'run:start',
        'agent:start',
        'run:error:Desk:refund:c1',
        'agent:error:Desk:refund:c1',
        `run:end:${REDACTED_TOOL_ERROR}`,
        `agent:end:${REDACTED_TOOL_ERROR}`,
      ]);
      expect(errors).toHaveLength(2);
      expect(errors[0]).toBeInstanceOf(LedgerDown);
      const sent = model.requests[1].input.find((i) => i.type === 'function_call_output');
      expect((sent as FunctionCallOutputItem).output).toBe(REDACTED_TOOL_ERROR);
      expect(JSON.stringify(model.requests[1])).not.toContain('hunter2');
    });

    it('the function span carries message, class and stack only when sensitive data is included', async () => {
      for (const includeSensitiveData of [true, false]) {
        const recorder = new RecordingTraceProcessor();
        setTraceProcessors([recorder]);
        const { agent } = failing();
        await drive(agent, { tracing: { includeSensitiveData } }, stream);
        const span = recorder.ended.find((s) => s.data.kind === 'function')!;
        expect((span.data as FunctionSpanData).name).toBe('refund');
        expect(span.error?.message).toBe(REDACTED_TOOL_ERROR);
        expect(span.error?.data?.type).toBe('LedgerDown');
        if (includeSensitiveData) {
          expect(span.error?.data?.message).toBe('ledger db password=hunter2 refused the write');
          expect(span.error?.data?.stack).toMatch(/LedgerDown|tool-errors\.test/);
        } else expect(JSON.stringify(recorder.ended)).not.toContain('hunter2');
      }
    });

    it('the logger option prints it; BATON_DEBUG=1 prints to console.warn; unset or 0 prints nothing', async () => {
      const lines: unknown[][] = [];
      await drive(failing().agent, { logger: { warn: (...a) => void lines.push(a) } }, stream);
      expect(lines).toHaveLength(1);
      expect(lines[0][0]).toBe(
        `[baton] tool "refund" (call c1) failed; the model was shown: ${JSON.stringify(REDACTED_TOOL_ERROR)}. The error:`,
      );
      expect(lines[0][1]).toBeInstanceOf(LedgerDown);
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      for (const value of [undefined, '0', 'false']) {
        if (value === undefined) vi.stubEnv('BATON_DEBUG', undefined);
        else vi.stubEnv('BATON_DEBUG', value);
        await drive(failing().agent, {}, stream);
      }
      expect(warn).not.toHaveBeenCalled();
      vi.stubEnv('BATON_DEBUG', '1');
      await drive(failing().agent, {}, stream);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0][1]).toBeInstanceOf(LedgerDown);
    });

    it('an error that fails the run (errorFunction: null, raising timeout) reaches onToolError, not onToolEnd', async () => {
      const fatal = failing({ errorFunction: null });
      const error = await drive(fatal.agent, { hooks: fatal.runHooks }, stream).catch((e) => e);
      expect(error).toBeInstanceOf(ToolCallError);
      expect(fatal.log).toEqual([
        'run:start',
        'agent:start',
        'run:error:Desk:refund:c1',
        'agent:error:Desk:refund:c1',
      ]);
      expect(fatal.errors[0]).toBeInstanceOf(LedgerDown);
      const raising = failing({ timeoutMs: 20, timeoutBehavior: 'raise' });
      const timeout = await drive(raising.agent, { hooks: raising.runHooks }, stream).catch(
        (e) => e,
      );
      expect(timeout).toBeInstanceOf(ToolTimeoutError);
      expect(raising.errors[0]).toBe(timeout);
      expect(raising.log.some((l) => l.includes(':end:'))).toBe(false);
      // A timeout shown to the model (the default) reaches both hooks.
      const slow = failing({ timeoutMs: 20 });
      await drive(slow.agent, { hooks: slow.runHooks }, stream);
      expect(slow.errors[0]).toBeInstanceOf(ToolTimeoutError);
      expect(slow.log.at(-1)).toMatch(/^agent:end:Error: Tool "refund" \(call c1\) timed out/);
    });
  });
}

describe('a tool that throws inside an agent used as a tool', () => {
  it('reaches the parent run’s logger and onToolError hook', async () => {
    const inner = failing();
    const outer = new Agent({
      name: 'Outer',
      tools: [inner.agent.asTool({ toolName: 'desk', toolDescription: '' })],
      model: new ScriptedModel([[fc('desk', { input: 'refund' }, 'c_out')], [msg('done')]]),
    });
    const lines: unknown[][] = [];
    const seen: string[] = [];
    await run(outer, 'go', {
      logger: { warn: (...a) => void lines.push(a) },
      hooks: { onToolError: (_c, agent, name) => void seen.push(`${agent.name}:${name}`) },
    });
    expect(lines.map((l) => l[1])).toEqual([expect.any(LedgerDown)]);
    expect(seen).toEqual(['Desk:refund']);
  });
});
