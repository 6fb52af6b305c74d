/**
 * The zod-free RunState check (what `RunState.fromString` runs) against the zod schema the
 * published JSON Schema is generated from: they accept and reject the same states — the
 * fixtures, states of real runs, and random deep mutations of them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fc as call, msg, ScriptedModel } from '@baton/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { run } from '../loop/run.js';
import { tool } from '../tool/tool.js';
import { createRunStateSchemaV1, runStateSpec } from './run-state-schema.js';

const schema = createRunStateSchemaV1(z);
const zodValid = (v: unknown) => schema.safeParse(v).success;
const checkValid = (v: unknown) => runStateSpec.check(v) === undefined;

const dir = new URL('./__fixtures__/run-state/', import.meta.url);
const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')));

async function pausedState(): Promise<unknown> {
  const approve = tool({
    name: 'refund',
    description: 'Refunds.',
    parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    needsApproval: true,
    execute: () => 'ok',
  });
  const agent = new Agent({
    name: 'desk',
    tools: [approve],
    model: new ScriptedModel([[call('refund', { n: 1 }, 'c1')], [msg('done')]]),
  });
  const result = await run(agent, 'refund please', { tracing: { disabled: true } });
  return JSON.parse(result.state.toString());
}

/** Every path to a value inside `v` (object keys and array indexes). */
const paths = (v: unknown, at: (string | number)[] = []): (string | number)[][] =>
  typeof v === 'object' && v !== null
    ? Object.entries(v).flatMap(([k, x]) => {
        const here = [...at, Array.isArray(v) ? Number(k) : k];
        return [here, ...paths(x, here)];
      })
    : [];

describe('the zod-free RunState check', () => {
  it('accepts the fixtures and real states, and rejects what zod rejects on deep mutations', async () => {
    const states = [...fixtures, await pausedState()];
    for (const s of states) {
      expect(zodValid(s)).toBe(true);
      expect(checkValid(s)).toBe(true);
    }
    let rejected = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...states),
        fc.nat(),
        fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)),
        (state, pick, replacement) => {
          const all = paths(state);
          const path = all[pick % all.length];
          const value = structuredClone(state) as Record<string | number, unknown>;
          let parent: Record<string | number, unknown> = value;
          for (const key of path.slice(0, -1)) parent = parent[key] as typeof parent;
          const last = path[path.length - 1];
          if (replacement === undefined && !Array.isArray(parent)) delete parent[last];
          else parent[last] = replacement;
          const ok = zodValid(value);
          if (!ok) rejected++;
          expect(checkValid(value), `${path.join('.')} = ${JSON.stringify(replacement)}`).toBe(ok);
        },
      ),
      { numRuns: 2000, seed: 22 },
    );
    expect(rejected).toBeGreaterThan(200);
  });

  it('makes the 1.1 checks: approval items only as interruptions, sessionId, resumeGeneration', async () => {
    const paused = (await pausedState()) as Record<string, any>;
    const [approval] = paused.interruptions;
    const cases: [string, (s: Record<string, any>) => void][] = [
      [
        'interruptions.0.type',
        (s) => (s.interruptions[0] = { ...approval, type: 'tool_call_item' }),
      ],
      ['interruptions.0.call_id', (s) => delete s.interruptions[0].call_id],
      ['interruptions.0.tool_name', (s) => (s.interruptions[0].tool_name = 1)],
      ['sessionId', (s) => (s.sessionId = 5)],
      ['resumeGeneration', (s) => (s.resumeGeneration = -1)],
    ];
    for (const [path, spoil] of cases) {
      const state = structuredClone(paused);
      spoil(state);
      const zodIssue = schema.safeParse(state).error?.issues[0];
      expect(zodIssue?.path.join('.')).toBe(path);
      expect(runStateSpec.check(state)).toEqual({
        path: zodIssue!.path,
        message: zodIssue!.message,
      });
    }
    expect(checkValid({ ...paused, sessionId: null, resumeGeneration: 2 })).toBe(true);
  });
});
