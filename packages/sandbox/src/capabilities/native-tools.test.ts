/**
 * The sandbox tools as OpenAI Responses tool types: a SandboxAgent on the local backend, the
 * real `openai` client against the fixture server (both modes). The model's `apply_patch_call`
 * (V4A diffs) and `shell_call` items change and read real files; their outputs go back as
 * `apply_patch_call_output` / `shell_call_output`. A model without the native tools (Chat
 * Completions) gets the portable function tools for the same capabilities.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunState, run } from '@baton/kernel';
import { createChatProvider } from '@baton/provider-chat';
import { OpenAIResponsesModel } from '@baton/provider-openai';
import { type FixtureServer, sseFromEvents, startFixtureServer } from '@baton/testing';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SandboxAgent } from '../agent/sandbox-agent.js';
import { localSandboxClient } from '../local/local-sandbox-client.js';
import { filesystem } from './filesystem.js';
import { shell } from './shell.js';

let rootDir: string;
let server: FixtureServer;
beforeAll(async () => {
  rootDir = await mkdtemp(join(tmpdir(), 'baton-native-tools-'));
});
afterAll(async () => {
  await rm(rootDir, { recursive: true, force: true });
});
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  await server.close();
});

let n = 0;
const id = (p: string) => `${p}_${(++n).toString().padStart(32, '0')}`;
/** One Responses answer (written from the API reference): JSON, or the SSE stream of it. */
function answer(output: Record<string, unknown>[], stream: boolean) {
  const body = {
    id: id('resp'),
    object: 'response',
    status: 'completed',
    model: 'gpt-5.4',
    output,
    usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
  };
  if (!stream) return { kind: 'json' as const, body };
  const shellOf = { ...body, status: 'in_progress', output: [] };
  const events: Record<string, unknown>[] = [{ type: 'response.created', response: shellOf }];
  output.forEach((item, output_index) => {
    events.push({
      type: 'response.output_item.added',
      output_index,
      item: { ...item, status: 'in_progress' },
    });
    events.push({ type: 'response.output_item.done', output_index, item });
  });
  events.push({ type: 'response.completed', response: body });
  return { kind: 'sse' as const, body: sseFromEvents(events, 'responses') };
}
const message = (text: string) => ({
  id: id('msg'),
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text, annotations: [] }],
});
const patchCall = (callId: string, operation: Record<string, unknown>) => ({
  id: id('apc'),
  type: 'apply_patch_call',
  call_id: callId,
  status: 'completed',
  operation,
  created_by: 'resp_x',
});
const shellCall = (
  callId: string,
  commands: string[],
  max_output_length: number | null = null,
) => ({
  id: id('sh'),
  type: 'shell_call',
  call_id: callId,
  status: 'completed',
  action: { commands, timeout_ms: 5000, max_output_length },
  environment: { type: 'local' },
});

const APP = 'def greet(name):\n    return "hi " + name\n\nprint(greet("x"))\n';

function agent(root: string, needsApproval = false) {
  return new SandboxAgent({
    name: 'coder',
    instructions: 'Edit the project.',
    model: new OpenAIResponsesModel('gpt-5.4', {
      client: new OpenAI({ apiKey: 'k', baseURL: `${server.url}/v1`, maxRetries: 0 }),
    }),
    client: localSandboxClient({ rootDir: root, isolation: 'none' }),
    manifest: { files: { 'app.py': APP, 'old.txt': 'bye\n' } },
    capabilities: [shell({ needsApproval }), filesystem()],
  });
}

async function drive(a: SandboxAgent, input: string | RunState<any, any>, stream: boolean) {
  if (!stream) return run(a, input as string);
  const r = await run(a, input as string, { stream: true });
  for await (const _ of r);
  await r.completed;
  return r;
}

const last = (i: number) => server.requests[i].body.input.at(-1);

describe('sandbox tools as Responses tool types', () => {
  for (const stream of [false, true]) {
    it(`apply_patch_call and shell_call run in the sandbox and are answered natively (stream: ${stream})`, async () => {
      const root = await mkdtemp(join(rootDir, 'run-'));
      server.enqueue(
        answer(
          [
            patchCall('p1', {
              type: 'update_file',
              path: 'app.py',
              diff: '@@ def greet(name):\n-    return "hi " + name\n+    return "hello " + name\n',
            }),
          ],
          stream,
        ),
        answer(
          [
            patchCall('p2', {
              type: 'create_file',
              path: 'src/new.py',
              diff: '+x = 1\n+print(x)\n',
            }),
            patchCall('p3', { type: 'delete_file', path: 'old.txt' }),
          ],
          stream,
        ),
        answer(
          [
            shellCall(
              's1',
              ['python3 app.py || cat app.py', 'ls src', 'echo oops >&2; exit 3'],
              400,
            ),
          ],
          stream,
        ),
        answer(
          [
            patchCall('p4', {
              type: 'update_file',
              path: 'app.py',
              diff: ' nothing like this\n-at all\n+x\n',
            }),
          ],
          stream,
        ),
        answer([message('Done.')], stream),
      );
      const result = await drive(agent(root), 'Say hello.', stream);
      expect(result.finalOutput).toBe('Done.');
      const tools = server.requests[0].body.tools;
      expect(tools).toContainEqual({ type: 'shell', environment: { type: 'local' } });
      expect(tools).toContainEqual({ type: 'apply_patch' });
      expect(
        tools
          .map((t: { name?: string }) => t.name)
          .filter(Boolean)
          .sort(),
      ).toEqual(['list_dir', 'read_file', 'write_file']);
      expect(last(1)).toEqual({
        type: 'apply_patch_call_output',
        call_id: 'p1',
        status: 'completed',
        output: 'Updated app.py.',
      });
      expect(server.requests[1].body.input.at(-2)).not.toHaveProperty('created_by');
      expect(server.requests[2].body.input.slice(-2)).toEqual([
        {
          type: 'apply_patch_call_output',
          call_id: 'p2',
          status: 'completed',
          output: 'Created src/new.py.',
        },
        {
          type: 'apply_patch_call_output',
          call_id: 'p3',
          status: 'completed',
          output: 'Deleted old.txt.',
        },
      ]);
      const shellOut = last(3);
      expect(shellOut.type).toBe('shell_call_output');
      expect(shellOut.call_id).toBe('s1');
      expect(shellOut.max_output_length).toBe(400);
      expect(shellOut.output.map((c: { outcome: unknown }) => c.outcome)).toEqual([
        { type: 'exit', exit_code: 0 },
        { type: 'exit', exit_code: 0 },
        { type: 'exit', exit_code: 3 },
      ]);
      expect(shellOut.output[0].stdout).toContain('hello');
      expect(shellOut.output[1].stdout).toBe('new.py\n');
      expect(shellOut.output[2].stderr).toBe('oops\n');
      const failed = last(4);
      expect(failed).toMatchObject({
        type: 'apply_patch_call_output',
        call_id: 'p4',
        status: 'failed',
      });
      expect(failed.output).toMatch(/not found in the file/);
      expect(result.history.filter((i) => i.type === 'shell_call_output')).toHaveLength(1);
    });
  }

  it('asks for approval of a shell_call with its commands, resumes from JSON, runs once', async () => {
    const root = await mkdtemp(join(rootDir, 'approve-'));
    const seen: string[] = [];
    const a = agent(root, ((command: string) => {
      seen.push(command);
      return true;
    }) as never);
    server.enqueue(
      answer([shellCall('s9', ['echo one >> log.txt', 'cat log.txt'])], false),
      answer([message('ok')], false),
    );
    const first = await drive(a, 'log', false);
    expect(first.interruptions.map((i) => i.call_id)).toEqual(['s9']);
    expect(seen).toEqual(['echo one >> log.txt\ncat log.txt']);
    const state = await RunState.fromString(a, first.state.toString());
    state.approve(state.interruptions[0]);
    await drive(a, state, false);
    expect(last(1).output[1].stdout).toBe('one\n');
    expect(server.requests).toHaveLength(2);
  });

  it('shell({ native: "local_shell" }) answers local_shell_call with the call id as the output id on the wire', async () => {
    const root = await mkdtemp(join(rootDir, 'local-'));
    const a = new SandboxAgent({
      name: 'coder',
      model: new OpenAIResponsesModel('codex-mini-latest', {
        client: new OpenAI({ apiKey: 'k', baseURL: `${server.url}/v1`, maxRetries: 0 }),
      }),
      client: localSandboxClient({ rootDir: root, isolation: 'none' }),
      capabilities: [shell({ native: 'local_shell' })],
    });
    server.enqueue(
      answer(
        [
          {
            id: id('lsh'),
            type: 'local_shell_call',
            call_id: 'ls1',
            status: 'completed',
            action: {
              type: 'exec',
              command: ['sh', '-c', 'echo "$GREETING"'],
              env: { GREETING: 'hi there' },
              timeout_ms: 5000,
              user: null,
              working_directory: null,
            },
          },
        ],
        false,
      ),
      answer([message('ok')], false),
    );
    const result = await drive(a, 'greet', false);
    expect(server.requests[0].body.tools).toContainEqual({ type: 'local_shell' });
    const sent = last(1);
    expect(sent).toEqual({
      type: 'local_shell_call_output',
      id: 'ls1',
      output: expect.any(String),
    });
    expect(JSON.parse(sent.output)).toMatchObject({
      stdout: 'hi there\n',
      exit_code: 0,
      timed_out: false,
    });
    // The transcript keeps call_id, so the call and its output pair.
    expect(result.history.find((i) => i.type === 'local_shell_call_output')).toMatchObject({
      call_id: 'ls1',
    });
  });

  it('a Chat Completions model gets the portable exec_command / apply_patch function tools', async () => {
    const root = await mkdtemp(join(rootDir, 'chat-'));
    server.enqueue({
      kind: 'json',
      body: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1767225600,
        model: 'gpt-4.1',
        choices: [
          { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Portable.' } },
        ],
        usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
      },
    });
    const a = new SandboxAgent({
      name: 'coder',
      model: 'chat:gpt-4.1',
      client: localSandboxClient({ rootDir: root, isolation: 'none' }),
      capabilities: [shell(), filesystem()],
    });
    const provider = createChatProvider({ baseURL: `${server.url}/v1`, apiKey: 'k' });
    const result = await run(a, 'hi', {
      modelProvider: { getModel: () => provider.getModel('gpt-4.1') },
    });
    expect(result.finalOutput).toBe('Portable.');
    const names = server.requests[0].body.tools
      .map((t: { function: { name: string } }) => t.function.name)
      .sort();
    expect(names).toEqual(['apply_patch', 'exec_command', 'list_dir', 'read_file', 'write_file']);
  });
});
