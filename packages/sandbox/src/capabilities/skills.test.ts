import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FunctionCallOutputItem, run, UserError } from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxAgent } from '../agent/sandbox-agent.js';
import { localSandboxClient } from '../local/local-sandbox-client.js';
import { filesystem } from './filesystem.js';
import { parseFrontMatter, skills } from './skills.js';

let rootDir: string;
beforeAll(async () => {
  rootDir = await mkdtemp(join(tmpdir(), 'baton-skills-'));
});
afterAll(async () => {
  await rm(rootDir, { recursive: true, force: true });
});

const files = {
  'skills/csv-report/SKILL.md':
    '---\nname: csv-report\ndescription: "Summarize a CSV file\n  into a table"\n---\n# CSV report\nUse awk.\n',
  'skills/release/SKILL.md':
    "---\nname: release-notes\ndescription: 'Write release notes from git log'\n---\nSteps...\n",
  'skills/no-skill-file/README.md': 'ignored',
};

describe('skills()', () => {
  it('parses front matter', () => {
    expect(parseFrontMatter('---\nname: a\ndescription: "b c"\n---\nbody')).toEqual({
      name: 'a',
      description: 'b c',
    });
    expect(
      parseFrontMatter(
        '---\nname: x\ndescription: >\n  folded\n  text\nother: "q"\nlit: |\n  a\n  b\n---',
      ),
    ).toEqual({ name: 'x', description: 'folded text', other: 'q', lit: 'a\nb' });
    expect(parseFrontMatter('no front matter')).toEqual({});
  });

  it('puts only name: description (path) lines in the prompt; the model opens SKILL.md with read_file', async () => {
    const model = new ScriptedModel([
      [fc('read_file', { path: 'skills/csv-report/SKILL.md' }, 'r1')],
      [msg('ok')],
    ]);
    const agent = new SandboxAgent({
      name: 'skilled',
      model,
      client: localSandboxClient({ rootDir, isolation: 'none' }),
      manifest: { files },
      capabilities: [filesystem(), skills()],
      treeDepth: 0,
    });
    await run(agent, 'make a report');
    const system = model.requests[0].systemInstructions!;
    expect(system).toContain('open its SKILL.md with read_file');
    expect(system).toContain(
      '- csv-report: Summarize a CSV file into a table (skills/csv-report/SKILL.md)',
    );
    expect(system).toContain(
      '- release-notes: Write release notes from git log (skills/release/SKILL.md)',
    );
    expect(system).not.toContain('Use awk');
    expect(system).not.toContain('no-skill-file');
    expect((model.requests[1].input.at(-1) as FunctionCallOutputItem).output).toContain('Use awk.');
  });

  it('lazy mode adds load_skill, which returns SKILL.md by name and rejects unknown names', async () => {
    const model = new ScriptedModel([
      [fc('load_skill', { name: 'release-notes' }, 'l1'), fc('load_skill', { name: 'nope' }, 'l2')],
      [msg('ok')],
    ]);
    const agent = new SandboxAgent({
      name: 'lazy',
      model,
      client: localSandboxClient({ rootDir, isolation: 'none' }),
      manifest: { files },
      capabilities: [skills({ lazy: true })],
    });
    await run(agent, 'go');
    expect(model.requests[0].tools.map((t) => t.name)).toEqual(['load_skill']);
    expect(model.requests[0].systemInstructions).toContain('call load_skill with its name');
    const outs = model.requests[1].input
      .filter((i): i is FunctionCallOutputItem => i.type === 'function_call_output')
      .map((o) => o.output);
    expect(outs[0]).toContain('Steps...');
    expect(outs[1]).toBe(
      'Error: No skill named "nope"; use one of the names listed in your instructions.',
    );
  });

  it('fails at preparation without filesystem() unless lazy', async () => {
    const model = new ScriptedModel([[msg('never')]]);
    const agent = new SandboxAgent({
      name: 'broken',
      model,
      client: localSandboxClient({ rootDir, isolation: 'none' }),
      capabilities: [skills()],
    });
    const error = await run(agent, 'go').catch((e) => e);
    expect(UserError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(/needs filesystem\(\).*skills\(\{ lazy: true \}\)/);
    expect(model.calls).toBe(0);
  });
});
