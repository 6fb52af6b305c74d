import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Agent,
  type FunctionCallOutputItem,
  type FunctionToolDefinition,
  run,
  type Span,
  setTraceProcessors,
  type TracingProcessor,
} from '@baton/kernel';
import { type MCPServerStdio, McpCapability } from '@baton/mcp';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  everythingStdio,
  filesystemStdio,
  recordingLogger,
} from './__fixtures__/reference-servers.js';

function outputs(
  items: readonly { type: string; raw_item: unknown }[],
): Record<string, FunctionCallOutputItem['output']> {
  const byCall: Record<string, FunctionCallOutputItem['output']> = {};
  for (const item of items) {
    const raw = item.raw_item as FunctionCallOutputItem;
    if (item.type === 'tool_call_output_item' && raw.type === 'function_call_output')
      byCall[raw.call_id] = raw.output;
  }
  return byCall;
}

describe('run() with MCP tools from the real reference servers', () => {
  const root = mkdtempSync(join(tmpdir(), 'baton-mcp-run-'));
  const file = join(root, 'greeting.txt');
  let everything: MCPServerStdio;
  let filesystem: MCPServerStdio;

  beforeAll(async () => {
    writeFileSync(file, 'Hello from the filesystem server.\n');
    everything = everythingStdio({
      stderr: 'ignore',
      cacheToolsList: true,
      logger: recordingLogger(),
    });
    filesystem = filesystemStdio(root, { stderr: 'ignore', cacheToolsList: true });
    await Promise.all([everything.connect(), filesystem.connect()]);
  });
  afterAll(async () => {
    await Promise.all([everything.close(), filesystem.close()]);
    rmSync(root, { recursive: true, force: true });
  });
  afterEach(() => setTraceProcessors([]));

  it("calls echo, get-sum and read_text_file and the model receives the servers' real answers", async () => {
    const spans: Span[] = [];
    const recorder: TracingProcessor = {
      onTraceStart() {},
      onTraceEnd() {},
      onSpanStart() {},
      onSpanEnd: (span) => void spans.push(span),
      forceFlush: async () => {},
      shutdown: async () => {},
    };
    setTraceProcessors([recorder]);
    const model = new ScriptedModel([
      [
        fc('echo', { message: 'hi there' }, 'call_echo'),
        fc('get-sum', { a: 12, b: 30 }, 'call_sum'),
        fc('read_text_file', { path: file, head: null, tail: null }, 'call_read'),
        fc('read_text_file', { path: '/etc/hostname', head: null, tail: null }, 'call_denied'),
      ],
      [msg('All three tools answered.')],
    ]);
    const agent = new Agent({
      name: 'mcp-user',
      instructions: 'Use the tools.',
      model,
      capabilities: [new McpCapability([everything, filesystem], { convertSchemasToStrict: true })],
    });
    const result = await run(agent, 'Please use your tools.');
    expect(result.finalOutput).toBe('All three tools answered.');
    expect(outputs(result.newItems)).toEqual({
      call_echo: 'Echo: hi there',
      call_sum: 'The sum of 12 and 30 is 42.',
      call_read: 'Hello from the filesystem server.\n',
      call_denied: `Error: MCP tool "read_text_file" (server "filesystem") returned an error: Access denied - path outside allowed directories: /etc/hostname not in ${root}`,
    });
    const sent = model.requests[0].tools as FunctionToolDefinition[];
    const readText = sent.find((t) => t.name === 'read_text_file')!;
    expect(readText.strict).toBe(true);
    expect(readText.parameters.required).toEqual(['path', 'tail', 'head']);
    expect(sent.map((t) => t.name)).toEqual(
      expect.arrayContaining(['echo', 'get-sum', 'read_text_file']),
    );
    const second = model.requests[1].input.filter(
      (i) => i.type === 'function_call_output',
    ) as FunctionCallOutputItem[];
    expect(second.map((o) => o.call_id)).toEqual([
      'call_echo',
      'call_sum',
      'call_read',
      'call_denied',
    ]);
    const functionSpans = spans
      .filter((s) => s.data.kind === 'function')
      .map((s) => (s.data as { name: string }).name);
    expect(functionSpans.sort()).toEqual(['echo', 'get-sum', 'read_text_file', 'read_text_file']);
    const listings = spans.filter((s) => s.data.kind === 'mcp_list_tools');
    expect(listings.map((s) => (s.data as { server: string }).server).sort()).toEqual([
      'everything',
      'filesystem',
    ]);
    const agentSpan = spans.find((s) => s.data.kind === 'agent')!;
    expect(listings.every((s) => s.parentId === agentSpan.spanId)).toBe(true);
    expect((listings[0].data as { result?: string[] }).result?.length).toBeGreaterThan(0);
  });

  it('a tool that requires approval pauses the run; after approval it runs and returns the real sum', async () => {
    const model = new ScriptedModel([
      [fc('echo', { message: 'free' }, 'call_free'), fc('get-sum', { a: 7, b: 8 }, 'call_gated')],
      [msg('Sum received.')],
    ]);
    const agent = new Agent({
      name: 'careful',
      model,
      capabilities: [
        new McpCapability([everything], { requireApproval: { toolNames: ['get-sum'] } }),
      ],
    });
    const paused = await run(agent, 'add 7 and 8');
    expect(paused.finalOutput).toBeUndefined();
    expect(paused.interruptions.map((i) => [i.tool_name, i.call_id])).toEqual([
      ['get-sum', 'call_gated'],
    ]);
    expect(outputs(paused.newItems).call_gated).toBeUndefined();
    paused.state.approve(paused.interruptions[0]);
    const resumed = await run(agent, paused.state);
    expect(resumed.finalOutput).toBe('Sum received.');
    expect(outputs(resumed.newItems)).toMatchObject({
      call_free: 'Echo: free',
      call_gated: 'The sum of 7 and 8 is 15.',
    });
    expect(model.calls).toBe(2);
  });

  it('a server killed mid-run gives the model a clear tool error, and the next call reconnects', async () => {
    const model = new ScriptedModel([
      () => {
        const pid = everything.pid!;
        setTimeout(() => process.kill(pid, 'SIGKILL'), 300);
        return [fc('trigger-long-running-operation', { duration: 5, steps: 5 }, 'call_long')];
      },
      [fc('echo', { message: 'are you back?' }, 'call_again')],
      [msg('Recovered.')],
    ]);
    const agent = new Agent({
      name: 'resilient',
      model,
      capabilities: [new McpCapability([everything])],
    });
    const before = everything.pid;
    const result = await run(agent, 'go');
    expect(result.finalOutput).toBe('Recovered.');
    const out = outputs(result.newItems);
    expect(out.call_long).toMatch(
      /^Error: MCP server "everything" is unavailable: the connection was lost during tools\/call "trigger-long-running-operation"/,
    );
    expect(out.call_again).toBe('Echo: are you back?');
    expect(everything.pid).not.toBe(before);
    expect(everything.status).toBe('connected');
  });
});
