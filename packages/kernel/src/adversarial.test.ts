/**
 * Adversarial inputs at kernel boundaries (found by the adversarial review):
 * 1. approve()/reject() with an item whose `path` is not a list of nested call ids (or names a
 *    key of Object.prototype such as "__proto__" / "constructor"), also after a RunState JSON
 *    round trip, must throw UserError — not `TypeError: nested.decide is not a function`.
 * 2. Tool arguments `{"__proto__": {...}}` must not pass validation by smuggling the fields in
 *    through the prototype (stripNulls copied keys by assignment, which sets the prototype).
 * 3. A guardrail, hook or model that throws a value that is not an Error (a string, `null`,
 *    `undefined`, a plain object) must fail the run with a Baton error that names where it was
 *    thrown and keeps the value as `cause` — not reject run() with `undefined`.
 * 4. A `session` option that is not a Session (a v1 custom object missing `getItems` /
 *    `addItems`, a string) or names an unknown `specificationVersion` is a UserError before
 *    anything runs, not `TypeError: session.addItems is not a function` after the model call.
 * 5. Usage a provider reports as `NaN`, a string, `Infinity` or so large that the sum overflows
 *    must not make the RunState JSON unloadable (`Infinity`/`NaN` serialize as `null`).
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  BatonError,
  inputGuardrail,
  MemorySession,
  outputGuardrail,
  RunState,
  run,
  tool,
  UserError,
} from './index.js';

function desk() {
  const refund = tool({
    name: 'refund',
    description: '',
    needsApproval: true,
    execute: () => 'ok',
  });
  return new Agent({
    name: 'Desk',
    tools: [refund],
    model: new ScriptedModel([[fc('refund', {}, 'c1')], [msg('done')]]),
  });
}

describe('approve()/reject() with a hostile item path', () => {
  for (const path of [['__proto__'], ['constructor'], ['toString'], null, 'c9', [7]]) {
    it(`path ${JSON.stringify(path)}: UserError, and the state still resumes`, async () => {
      const agent = desk();
      const { state } = await run(agent, 'refund please');
      const item = state.getInterruptions()[0];
      for (const decide of [
        () => state.approve({ ...item, path } as never),
        () => state.reject({ ...item, path } as never),
      ]) {
        expect(decide).toThrow(UserError);
      }
      state.approve(item);
      expect((await run(agent, state)).finalOutput).toBe('done');
    });
  }

  it('a RunState JSON whose interruption path names a prototype key: UserError on load or on approve', async () => {
    const agent = desk();
    const json = (await run(agent, 'refund please')).state.toJSON() as any;
    for (const head of ['__proto__', 'constructor', 'hasOwnProperty']) {
      const data = structuredClone(json);
      data.interruptions[0].path = [head];
      const outcome = await RunState.fromString(agent, JSON.stringify(data)).then(
        (loaded) => {
          try {
            loaded.approve(loaded.getInterruptions()[0]);
            return 'approved';
          } catch (error) {
            return error;
          }
        },
        (error) => error,
      );
      expect(outcome).toBeInstanceOf(UserError);
    }
  });

  it('approve(item, null) and reject(item, null) mean no options (not a TypeError)', async () => {
    const agent = desk();
    const { state } = await run(agent, 'refund please');
    state.reject(state.getInterruptions()[0], null as never);
    state.approve(state.getInterruptions()[0], null as never);
    expect(state.isApproved('refund', 'c1')).toBe(true);
    expect((await run(agent, state)).finalOutput).toBe('done');
  });
});

describe('tool arguments that smuggle fields through "__proto__"', () => {
  const zodTool = (calls: unknown[]) =>
    tool({
      name: 'pay',
      description: '',
      parameters: z.object({ amount: z.number() }),
      execute: (args) => {
        calls.push(args);
        return `paid ${args.amount}`;
      },
    });
  const jsonTool = (calls: unknown[]) =>
    tool({
      name: 'pay',
      description: '',
      parameters: {
        type: 'object',
        properties: { amount: { type: 'number' } },
        required: ['amount'],
        additionalProperties: false,
      },
      execute: (args: any) => {
        calls.push(args);
        return `paid ${args.amount}`;
      },
    });
  for (const [label, make] of [
    ['zod', zodTool],
    ['JSON Schema (strict)', jsonTool],
  ] as const) {
    for (const stream of [false, true]) {
      it(`${label}, stream: ${stream}: {"__proto__":{"amount":1}} is refused, the tool does not run`, async () => {
        const calls: unknown[] = [];
        const session = new MemorySession();
        const agent = new Agent({
          name: 'A',
          tools: [make(calls)],
          model: new ScriptedModel([
            [fc('pay', '{"__proto__":{"amount":1}}', 'c1')],
            [msg('done')],
          ]),
        });
        const result = await run(agent, 'go', { session, stream } as never);
        if (stream) {
          for await (const _ of result as unknown as AsyncIterable<unknown>) {
            // drain
          }
          await (result as unknown as { completed: Promise<void> }).completed;
        }
        expect(calls).toEqual([]);
        const output = (await session.getItems()).find((i) => i.type === 'function_call_output');
        expect((output as { output: string }).output).toMatch(/Invalid arguments for tool "pay"/);
      });
    }
  }
});

describe('user code that throws a value that is not an Error', () => {
  const values: [string, unknown][] = [
    ['a string', 'boom'],
    ['null', null],
    ['undefined', undefined],
    ['a plain object', { code: 42 }],
  ];
  const sources: [string, RegExp, (thrown: () => never) => Agent][] = [
    [
      'an input guardrail',
      /guardrail "g"/i,
      (thrown) =>
        new Agent({
          name: 'A',
          inputGuardrails: [inputGuardrail({ name: 'g', execute: thrown })],
          model: new ScriptedModel([[msg('x')]]),
        }),
    ],
    [
      'an output guardrail',
      /guardrail "g"/i,
      (thrown) =>
        new Agent({
          name: 'A',
          outputGuardrails: [outputGuardrail({ name: 'g', execute: thrown })],
          model: new ScriptedModel([[msg('x')]]),
        }),
    ],
    [
      'an onAgentStart hook',
      /onAgentStart/,
      (thrown) =>
        new Agent({
          name: 'A',
          hooks: { onAgentStart: thrown },
          model: new ScriptedModel([[msg('x')]]),
        }),
    ],
    [
      'a custom model',
      /custom model/,
      (thrown) =>
        new Agent({
          name: 'A',
          model: {
            specificationVersion: 'v1',
            provider: 'custom',
            modelId: 'm',
            getResponse: thrown,
            getStreamedResponse: thrown,
          } as never,
        }),
    ],
  ];
  for (const [source, where, make] of sources)
    for (const [label, value] of values)
      for (const stream of [false, true])
        it(`${source} throwing ${label}, stream: ${stream}: a Baton error naming it, the value as cause`, async () => {
          const thrown = (): never => {
            throw value;
          };
          const error = await (async () => {
            const result = await run(make(thrown), 'hi', { stream } as never);
            if (stream) {
              for await (const _ of result as unknown as AsyncIterable<unknown>) {
                // drain
              }
              await (result as unknown as { completed: Promise<void> }).completed;
            }
          })().then(
            () => 'no error',
            (e) => e,
          );
          expect(error).toBeInstanceOf(Error);
          expect(BatonError.isInstance(error)).toBe(true);
          expect((error as Error).message).toMatch(where);
          expect((error as Error).cause).toBe(value);
        });
});

describe('a session option that is not a Session', () => {
  const noop = async () => undefined;
  const cases: [string, unknown, RegExp][] = [
    ['an empty object', {}, /has no getItems, addItems/],
    [
      'a v1 object without addItems',
      { sessionId: 's', getItems: async () => [], popItem: noop, clearSession: noop },
      /has no addItems/,
    ],
    ['a string', 'session-1', /is a string/],
    [
      'an unknown specificationVersion',
      {
        specificationVersion: 'v9',
        sessionId: 's',
        getItems: async () => [],
        addItems: noop,
        popItem: noop,
        clearSession: noop,
      },
      /specificationVersion "v9"/,
    ],
  ];
  for (const [label, session, text] of cases)
    for (const stream of [false, true])
      it(`${label}, stream: ${stream}: UserError before the model is called`, async () => {
        const model = new ScriptedModel([[msg('x')]]);
        const error = await run(new Agent({ name: 'A', model }), 'hi', {
          session,
          stream,
        } as never).then(
          () => 'no error',
          (e) => e,
        );
        expect(error).toBeInstanceOf(UserError);
        expect((error as Error).message).toMatch(/options\.session/);
        expect((error as Error).message).toMatch(text);
        expect(model.requests).toHaveLength(0);
      });
});

describe('usage that is not a finite number', () => {
  for (const [label, usage] of [
    ['Infinity', { inputTokens: Number.POSITIVE_INFINITY, outputTokens: 1 }],
    ['NaN', { inputTokens: Number.NaN, outputTokens: 1 }],
    ['a string', { inputTokens: '12' as unknown as number, outputTokens: 1 }],
    ['a sum past Number.MAX_VALUE', { inputTokens: Number.MAX_VALUE, outputTokens: 1 }],
  ] as const) {
    it(`${label}: both modes pause, the state survives JSON, and the resumed run's usage is finite`, async () => {
      for (const stream of [false, true]) {
        const model = new ScriptedModel([
          { output: [fc('refund', {}, 'c1')], usage },
          { output: [msg('done')], usage },
        ]);
        const agent = new Agent({
          name: 'Desk',
          tools: [
            tool({ name: 'refund', description: '', needsApproval: true, execute: () => 'ok' }),
          ],
          model,
        });
        const first = stream ? await run(agent, 'go', { stream: true }) : await run(agent, 'go');
        if (stream) for await (const _ of first as AsyncIterable<unknown>);
        const restored = await RunState.fromString(agent, first.state.toString());
        restored.approve(restored.getInterruptions()[0]);
        const done = await run(agent, restored);
        expect(done.finalOutput).toBe('done');
        for (const value of Object.values(done.state.usage))
          expect(Number.isFinite(value)).toBe(true);
        expect(done.state.usage.requests).toBe(2);
        expect(done.state.usage.outputTokens).toBe(2);
      }
    });
  }
});
