/**
 * A program that uses no zod schema must not ship zod (issue 22): bundled with esbuild, a
 * program with Agent + run + a JSON Schema tool, a session, a zod/mini-free Standard Schema tool
 * and RunState round trips holds no byte of zod — and still runs. The same program with one zod
 * schema does bundle zod (so the check can fail).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const kernel = fileURLToPath(new URL('./index.ts', import.meta.url));

const program = (withZod: boolean) => `
import { Agent, MemorySession, RunState, run, tool, withJsonSchema } from ${JSON.stringify(kernel)};
${withZod ? "import { z } from 'zod';" : ''}
const model = {
  specificationVersion: 'v1', provider: 'inline', modelId: 'fake',
  async getResponse(request) {
    const outputs = request.input.filter((i) => i.type === 'function_call_output').length;
    const call = (name, args) => [{ type: 'function_call', call_id: 'c' + outputs, name, arguments: args }];
    return { usage: {}, output: outputs === 0 ? call('add', '{"a":1,"b":2}')
      : outputs === 1 ? call('echo', '{"text":"hi"}')
      : [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] }] };
  },
  async *getStreamedResponse() { throw new Error('not used'); },
};
const add = tool({ name: 'add', description: 'Adds.', needsApproval: true,
  parameters: ${withZod ? 'z.object({ a: z.number(), b: z.number() })' : "{ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false }"},
  execute: ({ a, b }) => String(a + b) });
// A hand-written Standard Schema (what valibot or zod/mini give), with its JSON Schema.
const Echo = { '~standard': { version: 1, vendor: 'hand', validate: (v) => typeof v?.text === 'string' ? { value: v } : { issues: [{ message: 'text must be a string' }] } } };
const echo = tool({ name: 'echo', description: 'Echoes.', execute: ({ text }) => text,
  parameters: withJsonSchema(Echo, { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false }) });
const agent = new Agent({ name: 'a', instructions: 'Add.', tools: [add, echo], model });
const session = new MemorySession('s');
const paused = await run(agent, 'add 1 and 2', { session, tracing: { disabled: true } });
const state = await RunState.fromString(agent, paused.state.toString());
state.approve(state.interruptions[0]);
const result = await run(agent, state, { session, tracing: { disabled: true } });
console.log(result.finalOutput, (await session.getItems()).length);
`;

async function bundle(withZod: boolean, dir: string) {
  const file = join(dir, `program-${withZod}.mjs`);
  writeFileSync(file, program(withZod));
  const r = await build({
    entryPoints: [file],
    bundle: true,
    minify: true,
    platform: 'neutral',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
    nodePaths: [fileURLToPath(new URL('../../../node_modules', import.meta.url))],
  });
  const zodBytes = Object.values(r.metafile.outputs)
    .flatMap((o) => Object.entries(o.inputs))
    .filter(([path]) => path.includes('node_modules/zod/'))
    .reduce((sum, [, input]) => sum + input.bytesInOutput, 0);
  const out = join(dir, `bundle-${withZod}.mjs`);
  writeFileSync(out, r.outputFiles[0].contents);
  return { zodBytes, run: spawnSync(process.execPath, [out], { encoding: 'utf8' }) };
}

describe('bundles of programs without zod schemas', () => {
  it('hold no zod, and run: JSON Schema and Standard Schema tools, a session, RunState resumed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-no-zod-'));
    try {
      const without = await bundle(false, dir);
      expect(without.run.stderr).toBe('');
      expect(without.run.stdout.trim()).toBe('done 6');
      expect(without.zodBytes).toBe(0);
      const withZod = await bundle(true, dir);
      expect(withZod.run.stdout.trim()).toBe('done 6');
      expect(withZod.zodBytes).toBeGreaterThan(10_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
