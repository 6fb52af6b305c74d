/**
 * A run removes every abort listener it adds — on the caller's signal and on the signals it
 * links to it (the model call's, each tool's, parallel guardrails', the wait between retries) —
 * so a long-lived signal shared by many runs does not collect listeners. Found by mutation
 * testing (a listener removed under the wrong event name survived every other test).
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Agent, inputGuardrail, ModelCallError, run, tool } from '../index.js';

afterEach(() => vi.restoreAllMocks());

/** Abort listeners added and not yet removed, on any signal, while the spy is on. */
function trackAbortListeners(): { live: () => number; added: () => number } {
  const live = new Set<unknown>();
  let added = 0;
  const add = EventTarget.prototype.addEventListener;
  const remove = EventTarget.prototype.removeEventListener;
  vi.spyOn(EventTarget.prototype, 'addEventListener').mockImplementation(function (
    this: EventTarget,
    type,
    listener,
    options,
  ) {
    if (type === 'abort' && this instanceof AbortSignal) {
      live.add(listener);
      added++;
    }
    return add.call(this, type, listener, options);
  });
  vi.spyOn(EventTarget.prototype, 'removeEventListener').mockImplementation(function (
    this: EventTarget,
    type,
    listener,
    options,
  ) {
    if (type === 'abort' && this instanceof AbortSignal) live.delete(listener);
    return remove.call(this, type, listener, options);
  });
  return { live: () => live.size, added: () => added };
}

describe('a finished run leaves no abort listener behind (both modes)', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`tools, a handoff hook, parallel input guardrails and a retried model call (${mode})`, async () => {
      const expert = new Agent({ name: 'Expert', model: new ScriptedModel([[msg('expert')]]) });
      const model = new ScriptedModel([
        { error: new ModelCallError('busy', { retryable: true, retryAfterMs: 1 }) },
        [fc('lookup', { q: 'a' }, 'c1'), fc('lookup', { q: 'b' }, 'c2')],
        [fc('transfer_to_expert', {}, 'h1')],
      ]);
      const lookup = tool({
        name: 'lookup',
        description: '',
        parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
        timeoutMs: 5_000,
        execute: async ({ q }: { q: string }) => `found ${q}`,
      });
      const check = inputGuardrail({
        name: 'check',
        runInParallel: true,
        execute: async () => ({ tripwireTriggered: false }),
      });
      const agent = new Agent({
        name: 'A',
        model,
        tools: [lookup],
        handoffs: [expert],
        inputGuardrails: [check],
      });
      const controller = new AbortController();
      const listeners = trackAbortListeners();
      const options = { signal: controller.signal, retry: { maxRetries: 1 } };
      if (stream) {
        const result = await run(agent, 'go', { ...options, stream: true });
        for await (const _ of result);
        await result.completed;
        expect(result.finalOutput).toBe('expert');
      } else {
        const result = await run(agent, 'go', options);
        expect(result.finalOutput).toBe('expert');
      }
      expect(listeners.added()).toBeGreaterThan(3);
      expect(listeners.live()).toBe(0);
    });

    it(`a run whose model call failed for good (${mode})`, async () => {
      const model = new ScriptedModel([
        { error: new ModelCallError('busy', { retryable: true, retryAfterMs: 1 }) },
        { error: new ModelCallError('down', { retryable: false }) },
      ]);
      const agent = new Agent({ name: 'A', model });
      const controller = new AbortController();
      const listeners = trackAbortListeners();
      const options = { signal: controller.signal, retry: { maxRetries: 3 } };
      if (stream) {
        const result = await run(agent, 'go', { ...options, stream: true });
        await expect(result.completed).rejects.toThrow('down');
      } else {
        await expect(run(agent, 'go', options)).rejects.toThrow('down');
      }
      expect(listeners.added()).toBeGreaterThan(1);
      expect(listeners.live()).toBe(0);
    });
  }
});
