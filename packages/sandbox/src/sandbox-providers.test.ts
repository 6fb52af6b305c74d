/**
 * The same SandboxAgent on the Chat Completions and Anthropic providers: the sandbox tools are
 * plain function tools, so both unmodified vendor clients (against the fixture server on
 * 127.0.0.1) get working tools — asserted on the request bodies the SDKs sent and on the run.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Model, run } from '@baton/kernel';
import { createAnthropicProvider } from '@baton/provider-anthropic';
import { createChatProvider } from '@baton/provider-chat';
import { type FixtureServer, startFixtureServer } from '@baton/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandboxAgent } from './agent/sandbox-agent.js';
import { localSandboxClient } from './local/local-sandbox-client.js';

const fixture = async (name: string) =>
  JSON.parse(await readFile(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8'));
const SANDBOX_TOOLS = ['read_file', 'list_dir', 'write_file', 'apply_patch', 'exec_command'];

let server: FixtureServer;
let rootDir: string;
beforeEach(async () => {
  server = await startFixtureServer();
  rootDir = await mkdtemp(join(tmpdir(), 'baton-sandbox-providers-'));
});
afterEach(async () => {
  await server.close();
  await rm(rootDir, { recursive: true, force: true });
});

const agentWith = (model: Model) =>
  new SandboxAgent({
    name: 'scorer',
    instructions: 'Answer questions about scores using the sandbox.',
    model,
    client: localSandboxClient({ rootDir, isolation: 'none' }),
    manifest: { files: { 'notes.md': 'scores go in scores.txt\n' } },
  });

describe('SandboxAgent with provider-chat (Chat Completions)', () => {
  it('sends the sandbox tools as functions, runs write_file and exec_command, and answers', async () => {
    server.enqueue(
      { kind: 'json', body: await fixture('chat-write-file.json') },
      { kind: 'json', body: await fixture('chat-exec-command.json') },
      { kind: 'json', body: await fixture('chat-answer.json') },
    );
    const model = await createChatProvider({
      baseURL: server.url,
      apiKey: 'sk-test-dummy',
    }).getModel('gpt-4.1-mini');
    const result = await run(agentWith(model), 'Save 17, 4, 23 and tell me the top score.');
    expect(result.finalOutput).toBe('The top score is 23.');

    const [first, second, third] = server.requests.map((r) => r.body);
    expect(server.requests.map((r) => r.path)).toEqual([
      '/chat/completions',
      '/chat/completions',
      '/chat/completions',
    ]);
    expect(first.tools.map((t: any) => t.function.name)).toEqual(SANDBOX_TOOLS);
    const exec = first.tools.find((t: any) => t.function.name === 'exec_command').function;
    expect(exec.strict).toBe(true);
    expect(exec.parameters.required).toEqual(['command', 'cwd', 'timeout_ms']);
    expect(first.messages[0].role).toBe('system');
    expect(first.messages[0].content).toContain('notes.md (24 B)');
    expect(second.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_sbxWrite01',
      content: 'Wrote 8 bytes to scores.txt.',
    });
    expect(third.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_sbxExec02',
      content: 'exit_code: 0\nstdout:\n23\n',
    });
    expect(result.usage).toMatchObject({ requests: 3, inputTokens: 410 + 460 + 520 });
  });
});

describe('SandboxAgent with provider-anthropic (Messages)', () => {
  it('sends the sandbox tools with input schemas, returns tool_result blocks, and answers', async () => {
    server.enqueue(
      { kind: 'json', body: await fixture('anthropic-write-file.json') },
      { kind: 'json', body: await fixture('anthropic-exec-command.json') },
      { kind: 'json', body: await fixture('anthropic-answer.json') },
    );
    const model = createAnthropicProvider({ baseURL: server.url, apiKey: 'sk-ant-test' }).getModel(
      'claude-sonnet-4-6',
    );
    const result = await run(agentWith(model), 'Save 17, 4, 23 and tell me the top score.');
    expect(result.finalOutput).toBe('The top score is 23.');

    const [first, second, third] = server.requests.map((r) => r.body);
    expect(server.requests.map((r) => r.path)).toEqual([
      '/v1/messages',
      '/v1/messages',
      '/v1/messages',
    ]);
    expect(first.tools.map((t: any) => t.name)).toEqual(SANDBOX_TOOLS);
    expect(first.tools.find((t: any) => t.name === 'apply_patch').input_schema).toMatchObject({
      type: 'object',
      required: ['patch'],
    });
    expect(JSON.stringify(first.system)).toContain('notes.md (24 B)');
    const toolResult = (body: any) =>
      body.messages.at(-1).content.find((b: any) => b.type === 'tool_result');
    expect(toolResult(second)).toMatchObject({
      tool_use_id: 'toolu_01SbxWrite',
      content: 'Wrote 8 bytes to scores.txt.',
    });
    expect(toolResult(third)).toMatchObject({
      tool_use_id: 'toolu_02SbxExec',
      content: 'exit_code: 0\nstdout:\n23\n',
    });
    expect(result.usage).toMatchObject({ requests: 3, inputTokens: 980 + 1050 + 1120 });
  });
});
