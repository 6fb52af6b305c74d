import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type FunctionCallOutputItem,
  type ModelRequest,
  RunState,
  run,
  UserError,
} from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesystem } from '../capabilities/filesystem.js';
import { shell } from '../capabilities/shell.js';
import { localSandboxClient } from '../local/local-sandbox-client.js';
import { SandboxAgent } from './sandbox-agent.js';
import { sandboxRun } from './sandbox-run.js';
import { getSandboxRunRecord } from './sandbox-run-state.js';

let rootDir: string;
beforeAll(async () => {
  rootDir = await mkdtemp(join(tmpdir(), 'baton-sandbox-agent-'));
});
afterAll(async () => {
  await rm(rootDir, { recursive: true, force: true });
});

const outputs = (req: ModelRequest) =>
  req.input
    .filter((i): i is FunctionCallOutputItem => i.type === 'function_call_output')
    .map((o) => String(o.output));
const toolNames = (req: ModelRequest) => req.tools.map((t) => t.name).sort();

describe('SandboxAgent run() on the local backend', () => {
  it('writes a file, runs a shell command over it and answers from the output', async () => {
    const model = new ScriptedModel([
      [fc('write_file', { path: 'data/numbers.txt', content: '7\n42\n13\n' }, 'c1')],
      [fc('exec_command', { command: 'sort -n data/numbers.txt | tail -n 1' }, 'c2')],
      (req) => {
        const out = outputs(req).at(-1)!;
        const largest = /stdout:\n(\d+)/.exec(out)![1];
        return [msg(`The largest number is ${largest}.`)];
      },
    ]);
    const agent = new SandboxAgent({
      name: 'numbers',
      instructions: 'Work in the sandbox.',
      model,
      client: localSandboxClient({ rootDir, isolation: 'none' }),
      manifest: { files: { 'README.md': '# numbers\n' } },
    });
    const result = await run(agent, 'Which number is the largest?');
    expect(result.finalOutput).toBe('The largest number is 42.');
    expect(outputs(model.requests[1])).toEqual(['Wrote 8 bytes to data/numbers.txt.']);
    expect(outputs(model.requests[2])[1]).toBe('exit_code: 0\nstdout:\n42\n');
    expect(toolNames(model.requests[0])).toEqual([
      'apply_patch',
      'exec_command',
      'list_dir',
      'read_file',
      'write_file',
    ]);
    const system = model.requests[0].systemInstructions!;
    expect(
      system.startsWith(
        'Work in the sandbox.\n\nYou work in a sandbox workspace (backend: local).',
      ),
    ).toBe(true);
    expect(system).toContain('README.md (10 B)');
    // The run owned its session: snapshotted and closed on exit, recorded in the RunState.
    const record = getSandboxRunRecord(result.state, 'numbers')!;
    expect(record).toMatchObject({
      v: 1,
      owner: 'run',
      closed: true,
      session: { backend: 'local' },
    });
    expect(record.session.snapshot?.snapshotId).toMatch(/^snap_/);
    expect(await readdir(join(rootDir, 'sessions'))).not.toContain(record.session.sessionId);
    expect(await readdir(join(rootDir, 'snapshots', record.session.snapshot!.snapshotId))).toEqual([
      'README.md',
      'data',
    ]);
  });

  it('serves concurrent runs of one agent with separate workspaces', async () => {
    const model = new ScriptedModel(
      [
        (req) => {
          const who = (req.input[0] as { content: string }).content;
          const outs = outputs(req);
          if (outs.length === 0)
            return [fc('write_file', { path: 'me.txt', content: who }, `w_${who}`)];
          if (outs.length === 1)
            return [fc('exec_command', { command: 'sleep 0.2; cat me.txt' }, `x_${who}`)];
          return [msg(`${who} sees ${/stdout:\n(.*)/.exec(outs[1])![1]}`)];
        },
      ],
      { whenExhausted: 'repeat_last' },
    );
    const agent = new SandboxAgent({
      name: 'twin',
      model,
      client: localSandboxClient({ rootDir, isolation: 'none' }),
      capabilities: [filesystem(), shell()],
    });
    const results = await Promise.all(['alpha', 'beta', 'gamma'].map((who) => run(agent, who)));
    expect(results.map((r) => r.finalOutput)).toEqual([
      'alpha sees alpha',
      'beta sees beta',
      'gamma sees gamma',
    ]);
    const ids = results.map((r) => getSandboxRunRecord(r.state, 'twin')!.session.sessionId);
    expect(new Set(ids).size).toBe(3);
  });

  it('shows a path escape to the model as a correctable error and goes on', async () => {
    const model = new ScriptedModel([
      [fc('read_file', { path: '../../etc/passwd' }, 'e1')],
      [msg('refused')],
    ]);
    const agent = new SandboxAgent({
      name: 'escape',
      model,
      client: localSandboxClient({ rootDir, isolation: 'none' }),
      capabilities: [filesystem()],
    });
    const result = await run(agent, 'read it');
    expect(result.finalOutput).toBe('refused');
    expect(outputs(model.requests[1])[0]).toMatch(
      /^Error: Path "\.\.\/\.\.\/etc\/passwd" refused: "\.\." climbs above the workspace root/,
    );
  });

  it('fails at agent preparation with a UserError when no client is given, before any model call', async () => {
    const model = new ScriptedModel([[msg('never')]]);
    const agent = new SandboxAgent({ name: 'no-client', model });
    const error = await run(agent, 'hi').catch((e) => e);
    expect(UserError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(
      /has no sandbox client.*sandboxRun\(agent, input, \{ sandbox: \{ client \} \}\)/,
    );
    expect(model.calls).toBe(0);
  });

  it('streams with sandboxRun({ sandbox: { client } }) overriding the agent config', async () => {
    const model = new ScriptedModel([
      [fc('exec_command', { command: 'cat seed.txt' }, 's1')],
      (req) => [msg(outputs(req)[0])],
    ]);
    const agent = new SandboxAgent({
      name: 'streamer',
      model,
      manifest: { files: { 'seed.txt': 'seeded' } },
      capabilities: [shell()],
    });
    const streamed = await sandboxRun(agent, 'go', {
      stream: true,
      sandbox: { client: localSandboxClient({ rootDir, isolation: 'none' }) },
    });
    const names: string[] = [];
    for await (const event of streamed)
      if (event.type === 'run_item_stream_event') names.push(event.name);
    await streamed.completed;
    expect(names).toEqual(['tool_called', 'tool_output', 'message_output_created']);
    expect(streamed.finalOutput).toBe('exit_code: 0\nstdout:\nseeded');
  });
});

describe('SandboxAgent pause and resume after a RunState JSON round trip', () => {
  const approvalAgent = (model: ScriptedModel, client?: ReturnType<typeof localSandboxClient>) =>
    new SandboxAgent({
      name: 'careful',
      model,
      client,
      capabilities: [filesystem(), shell({ needsApproval: true })],
    });

  it('resumes from the snapshot in a new session after the run-owned session was closed', async () => {
    const model = new ScriptedModel([
      [fc('write_file', { path: 'notes.txt', content: 'written before the pause' }, 'p1')],
      [fc('exec_command', { command: 'cat notes.txt; echo; echo "$$" > pid.txt' }, 'p2')],
      (req) => [msg(`after resume: ${/stdout:\n(.*)/.exec(outputs(req)[1])![1]}`)],
    ]);
    const first = await run(
      approvalAgent(model, localSandboxClient({ rootDir, isolation: 'none' })),
      'note it',
    );
    expect(first.interruptions.map((i) => i.tool_name)).toEqual(['exec_command']);
    const paused = getSandboxRunRecord(first.state, 'careful')!;
    expect(paused).toMatchObject({ owner: 'run', closed: true });
    const json = JSON.stringify(first.state.toJSON());

    // "Another process": a new agent object and a new client over the same snapshot directory.
    const agent2 = approvalAgent(model, localSandboxClient({ rootDir, isolation: 'none' }));
    const state = await RunState.fromString(agent2, json);
    state.approve(state.getInterruptions()[0]);
    const resumed = await run(agent2, state);
    expect(resumed.finalOutput).toBe('after resume: written before the pause');
    const after = getSandboxRunRecord(resumed.state, 'careful')!;
    expect(after.session.sessionId).not.toBe(paused.session.sessionId);
    expect(after.session.snapshot!.snapshotId).not.toBe(paused.session.snapshot!.snapshotId);
    expect(model.calls).toBe(3);
  });

  it('reattaches to the live caller-owned session by id and leaves it open', async () => {
    const client = localSandboxClient({ rootDir, isolation: 'none' });
    const session = await client.create({ files: { 'state.txt': 'live workspace' } });
    const model = new ScriptedModel([
      [fc('exec_command', { command: 'cat state.txt; echo " + resumed" >> state.txt' }, 'l1')],
      (req) => [msg(outputs(req)[0])],
    ]);
    const first = await sandboxRun(approvalAgent(model), 'check', { sandbox: { session } });
    expect(first.interruptions).toHaveLength(1);
    expect(getSandboxRunRecord(first.state, 'careful')).toMatchObject({
      owner: 'caller',
      closed: false,
      session: { sessionId: session.id },
    });

    const agent2 = approvalAgent(model);
    const state = await RunState.fromString(agent2, first.state.toString());
    state.approve(state.getInterruptions()[0]);
    const resumed = await sandboxRun(agent2, state, {
      sandbox: { client: localSandboxClient({ rootDir, isolation: 'none' }) },
    });
    expect(resumed.finalOutput).toBe('exit_code: 0\nstdout:\nlive workspace');
    expect(getSandboxRunRecord(resumed.state, 'careful')).toMatchObject({
      owner: 'caller',
      closed: false,
      session: { sessionId: session.id },
    });
    expect(await session.readFile('state.txt', 'utf8')).toBe('live workspace + resumed\n');
    await session.close();
  });
});
