/**
 * The types of `run()`: one signature (no overloads), so a misspelt option gets "Did you mean
 * …?" in both modes, and `context` is tied to the agent's context type. The `expectTypeOf` and
 * `@ts-expect-error` lines are checked by `tsc -p tsconfig.check.json`; the diagnostic texts by
 * compiling `__fixtures__/run-diagnostics.ts` with tsc (`@ts-expect-error` ignores the message).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import { RunState } from '../run-state/run-state.js';
import { MemorySession } from '../session/memory-session.js';
import { type ContextOf, Runner, run } from './run.js';
import type { RunContext } from './run-context.js';
import type { RunResult, StreamedRunResult } from './run-result.js';

const desk = new Agent<{ userId: string }>({ name: 'Desk' });
const session = new MemorySession();

/** Only compiled, never called: the assertions are on types. */
export async function typeAssertions(flag: boolean): Promise<void> {
  expectTypeOf<ContextOf<typeof desk>>().toEqualTypeOf<{ userId: string }>();
  expectTypeOf(run(desk, 'hi')).resolves.toEqualTypeOf<
    RunResult<{ userId: string }, typeof desk>
  >();
  expectTypeOf(run(desk, 'hi', { stream: true })).resolves.toEqualTypeOf<
    StreamedRunResult<{ userId: string }, typeof desk>
  >();
  expectTypeOf(run(desk, 'hi', { stream: false, session })).resolves.toEqualTypeOf<
    RunResult<{ userId: string }, typeof desk>
  >();
  // A boolean only known at run time: either result.
  expectTypeOf(run(desk, 'hi', { stream: flag })).resolves.toEqualTypeOf<
    RunResult<{ userId: string }, typeof desk> | StreamedRunResult<{ userId: string }, typeof desk>
  >();
  expectTypeOf(new Runner().run(desk, 'hi', { stream: true })).resolves.toEqualTypeOf<
    StreamedRunResult<{ userId: string }, typeof desk>
  >();
  const state = await RunState.fromString(desk, '{}');
  expectTypeOf(run(desk, state, { context: { userId: 'u' } })).resolves.toEqualTypeOf<
    RunResult<{ userId: string }, typeof desk>
  >();
  // @ts-expect-error a misspelt option
  await run(desk, 'hi', { sesion: session });
  // @ts-expect-error a misspelt option in streaming mode
  await run(desk, 'hi', { stream: true, sesion: session });
  // @ts-expect-error the agent's context type is { userId: string }
  await run(desk, 'hi', { context: { userId: 1 } });
  const typed = new Agent({
    name: 'Typed',
    instructions: (ctx: RunContext<{ tenant: string }>) => ctx.context.tenant,
  });
  // @ts-expect-error the context type inferred from the instructions
  await run(typed, 'hi', { stream: true, context: { tenant: 2 } });
  // An agent without a context type takes any context.
  await run(new Agent({ name: 'Loose' }), 'hi', { context: 42 });
}

const fixture = new URL('./__fixtures__/run-diagnostics.ts', import.meta.url).pathname;
const tsc = join(
  dirname(createRequire(import.meta.url).resolve('typescript/package.json')),
  'bin',
  'tsc',
);

function compile(): Promise<string> {
  const args = ['--ignoreConfig', '--noEmit', '--strict', '--pretty', 'false'];
  args.push('--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022');
  args.push('--skipLibCheck', '--types', 'node', fixture);
  return new Promise((resolve) =>
    execFile(process.execPath, [tsc, ...args], (_error, stdout) => resolve(stdout)),
  );
}

describe('run() diagnostics, as tsc prints them', () => {
  it('a typo gets "Did you mean", a wrong context type a plain assignability error', async () => {
    const out = await compile();
    const lines = readFileSync(fixture, 'utf8').split('\n');
    const byMark = new Map<string, string[]>();
    for (const m of out.matchAll(/\((\d+),\d+\): error (TS\d+: .*)/g)) {
      const mark = /\/\/ expect: (\S+)/.exec(lines[Number(m[1]) - 1])?.[1] ?? `line ${m[1]}`;
      byMark.set(mark, [...(byMark.get(mark) ?? []), m[2]]);
    }
    const didYouMean = (mode: string) => [
      `TS2561: Object literal may only specify known properties, but 'sesion' does not exist in type 'RunOptionsFor<Agent<{ userId: string; }, undefined>, ${mode}>'. Did you mean to write 'session'?`,
    ];
    expect(Object.fromEntries(byMark)).toEqual({
      sesion: didYouMean('false'),
      'sesion-stream': didYouMean('true'),
      'sesion-runner': didYouMean('true'),
      'context-type': ["TS2322: Type 'number' is not assignable to type 'string'."],
      'context-key': [
        "TS2353: Object literal may only specify known properties, and 'user' does not exist in type '{ userId: string; }'.",
      ],
      'context-inferred': ["TS2322: Type 'number' is not assignable to type 'string'."],
      'context-step': ["TS2322: Type 'boolean' is not assignable to type 'string'."],
    });
    expect(out).not.toMatch(/No overload matches|is not assignable to type 'false'/);
  });
});

describe('hover docs', () => {
  /** Fields of `interface name` in `file`: all, and those without a TSDoc comment above them. */
  function fields(file: string, name: string): { all: string[]; undocumented: string[] } {
    const text = readFileSync(new URL(file, import.meta.url), 'utf8');
    const body = text.slice(text.indexOf(`export interface ${name}`)).split('\n}\n')[0];
    const lines = body.split('\n');
    const found = lines
      .map((line, i) => ({ field: /^ {2}(\w+)\??:/.exec(line)?.[1], above: lines[i - 1] }))
      .filter((l) => l.field !== undefined);
    const undocumented = found.filter((l) => !l.above.trim().endsWith('*/'));
    return { all: found.map((l) => l.field!), undocumented: undocumented.map((l) => l.field!) };
  }

  it('every run option (stream included) and every AgentConfig field has TSDoc', () => {
    const options = fields('./run-options.ts', 'RunOptions');
    const config = fields('../agent/agent.ts', 'AgentConfig');
    expect(options.all).toEqual(expect.arrayContaining(['context', 'session', 'logger']));
    expect(config.all).toEqual(expect.arrayContaining(['instructions', 'handoffs', 'outputType']));
    expect(options.undocumented).toEqual([]);
    expect(config.undocumented).toEqual([]);
    const run = readFileSync(new URL('./run.ts', import.meta.url), 'utf8');
    expect(run).toMatch(/\*\/\n {2}stream\?: S;/);
  });
});
