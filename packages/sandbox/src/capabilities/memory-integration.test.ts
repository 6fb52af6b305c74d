/**
 * `@baton/memory` in a SandboxAgent: compaction() on the shared core reuses an earlier run's
 * summary over the same session history (it used to summarize again on every run), and memory()
 * copies the memory folder into the workspace, where the agent's own shell reads it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Item, MemorySession, type ModelRequest, run } from '@baton/kernel';
import { DirectoryMemoryStore, MEMORY_FILE, memory, SUMMARY_FILE } from '@baton/memory';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxAgent } from '../agent/sandbox-agent.js';
import { sandboxSessionFor } from '../agent/sandbox-binding.js';
import { localSandboxClient } from '../local/local-sandbox-client.js';
import { compaction } from './compaction.js';
import { shell } from './shell.js';

let rootDir: string;
beforeAll(async () => {
  rootDir = await mkdtemp(join(tmpdir(), 'baton-sbx-memory-'));
});
afterAll(async () => {
  await rm(rootDir, { recursive: true, force: true });
});
const isSummary = (req: ModelRequest) =>
  !!req.systemInstructions?.startsWith('You compress conversations');

describe('compaction() across runs', () => {
  it('a new run over the same stored history reuses the summary instead of summarizing it again', async () => {
    let summaries = 0;
    const model = new ScriptedModel(
      [(req) => (isSummary(req) ? [msg(`Summary ${++summaries}`)] : [msg('answer')])],
      { whenExhausted: 'repeat_last' },
    );
    const agent = new SandboxAgent({
      name: 'long',
      model,
      client: localSandboxClient({ rootDir, isolation: 'none' }),
      capabilities: [compaction({ thresholdTokens: 400, keepRecentTokens: 100 })],
      treeDepth: 0,
    });
    const session = new MemorySession({
      initialItems: [
        { type: 'message', role: 'user', content: `old context ${'x'.repeat(2000)}` } as Item,
        msg('ok'),
      ],
    });
    await run(agent, 'first question', { session });
    expect(summaries).toBe(1);
    await run(agent, 'second question', { session });
    await run(agent, 'third question', { session });
    // Same old prefix each run: summarized once, reused twice.
    expect(summaries).toBe(1);
    const last = model.requests.at(-1)!;
    expect(last.input[0]).toMatchObject({ content: expect.stringContaining('Summary 1') });
  });
});

describe('memory() in a SandboxAgent', () => {
  it('copies the memory folder into the workspace, where the shell reads it', async () => {
    const store = new DirectoryMemoryStore({ root: join(rootDir, 'mem') });
    await store.writeText(SUMMARY_FILE, 'Ada prefers refunds to her card.');
    await store.writeText(MEMORY_FILE, '# Refunds\n- fact: order 1042 refunded\n');
    const model = new ScriptedModel([
      [
        fc(
          'exec_command',
          { command: 'grep -n 1042 memories/MEMORY.md', cwd: '.', timeout_ms: 10_000 },
          'g1',
        ),
      ],
      [msg('Order 1042 was refunded.')],
    ]);
    const agent = new SandboxAgent({
      name: 'support',
      model,
      client: localSandboxClient({ rootDir, isolation: 'none' }),
      capabilities: [
        shell(),
        memory({
          store,
          generate: false,
          read: { workspace: { files: (r) => sandboxSessionFor(r) } },
        }),
      ],
      treeDepth: 0,
    });
    const result = await run(agent, 'What about order 1042?');
    expect(result.finalOutput).toBe('Order 1042 was refunded.');
    const sys = model.requests[0].systemInstructions!;
    expect(sys).toContain('Ada prefers refunds to her card.');
    expect(sys).toContain('workspace at `memories/`');
    expect(model.requests[0].tools.map((t) => t.name)).toEqual([
      'exec_command',
      'memory_search',
      'memory_open',
    ]);
    const out = model.requests[1].input.at(-1) as { output: string };
    expect(out.output).toContain('2:- fact: order 1042 refunded');
  });
});
