import { ToolInputError, ToolTimeoutError } from '@baton/kernel';
import { MCPServerError, MCPServerStdio, type McpListToolsEvent, mcpTools } from '@baton/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byName, invokeTool } from './__fixtures__/invoke-tool.js';
import { everythingStdio, recordingLogger, waitUntil } from './__fixtures__/reference-servers.js';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('MCPServerStdio against server-everything (stdio)', () => {
  const logger = recordingLogger();
  const server = everythingStdio({ logger });

  beforeAll(async () => {
    await server.connect();
  });
  afterAll(async () => {
    await server.close();
  });

  it('lists the real tools and calls echo and get-sum with the real answers', async () => {
    expect(server.status).toBe('connected');
    const names = (await server.listTools()).map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'echo',
        'get-sum',
        'get-tiny-image',
        'trigger-long-running-operation',
      ]),
    );
    expect(await server.callTool('echo', { message: 'hello baton' })).toEqual({
      content: [{ type: 'text', text: 'Echo: hello baton' }],
    });
    expect(await server.callTool('get-sum', { a: 2, b: 40 })).toEqual({
      content: [{ type: 'text', text: 'The sum of 2 and 40 is 42.' }],
    });
  });

  it('returns isError results raw from callTool and as a model-visible ToolInputError through the tool', async () => {
    const raw = await server.callTool('get-resource-reference', {
      resourceType: 'Text',
      resourceId: 0,
    });
    expect(raw.isError).toBe(true);
    const tool = byName(await mcpTools([server]), 'get-resource-reference');
    const call = await invokeTool(tool, { resourceType: 'Text', resourceId: 0 });
    expect(call.error).toBeInstanceOf(ToolInputError);
    expect(call.output).toBe(
      'Error: MCP tool "get-resource-reference" (server "everything") returned an error: Invalid resourceId: 0. Must be a finite positive integer.',
    );
  });

  it('gives images as input_image parts and embedded text resources as text', async () => {
    const tools = await mcpTools([server]);
    const image = await invokeTool(byName(tools, 'get-tiny-image'), {});
    expect(Array.isArray(image.output)).toBe(true);
    const parts = image.output as { type: string; image_url?: string; text?: string }[];
    expect(parts[0]).toEqual({ type: 'input_text', text: "Here's the image you requested:" });
    expect(parts[1].type).toBe('input_image');
    expect(parts[1].image_url).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    const reference = await invokeTool(byName(tools, 'get-resource-reference'), {
      resourceType: 'Text',
      resourceId: 2,
    });
    expect(reference.output).toContain('Returning resource reference for Resource 2:');
    expect(reference.output).toContain(
      'You can access this resource using the URI: demo://resource/dynamic/text/2',
    );
  });

  it('reports a timeout as MCPServerError and, through the tool, as a model-visible ToolTimeoutError', async () => {
    await expect(
      server.callTool(
        'trigger-long-running-operation',
        { duration: 3, steps: 3 },
        { timeoutMs: 300 },
      ),
    ).rejects.toMatchObject({ reason: 'timeout', timeoutMs: 300, serverName: 'everything' });
    const slow = everythingStdio({ timeoutMs: 1_000, stderr: 'ignore' });
    try {
      const tool = byName(await mcpTools([slow]), 'trigger-long-running-operation');
      const call = await invokeTool(tool, { duration: 3, steps: 3 }, { callId: 'call_slow' });
      expect(call.error).toBeInstanceOf(ToolTimeoutError);
      expect(call.output).toMatch(
        /^Error: Tool "trigger-long-running-operation" \(call call_slow\) timed out after 1000 ms/,
      );
      // The connection survives a timeout.
      expect(await slow.callTool('echo', { message: 'still here' })).toEqual({
        content: [{ type: 'text', text: 'Echo: still here' }],
      });
    } finally {
      await slow.close();
    }
    expect(await server.callTool('echo', { message: 'after timeout' })).toEqual({
      content: [{ type: 'text', text: 'Echo: after timeout' }],
    });
  });

  it('rethrows the abort reason when a call is aborted and stays usable', async () => {
    const controller = new AbortController();
    const reason = new Error('stop now');
    const pending = server.callTool(
      'trigger-long-running-operation',
      { duration: 3, steps: 3 },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(reason), 100);
    await expect(pending).rejects.toBe(reason);
    expect(server.status).toBe('connected');
    expect((await server.callTool('echo', { message: 'x' })).content).toEqual([
      { type: 'text', text: 'Echo: x' },
    ]);
  });

  it('gives a clear tool error when the server process is killed mid-call, then reconnects on the next call', async () => {
    const tools = await mcpTools([server]);
    const oldPid = server.pid!;
    expect(isAlive(oldPid)).toBe(true);
    const inFlight = invokeTool(byName(tools, 'trigger-long-running-operation'), {
      duration: 5,
      steps: 5,
    });
    await new Promise((r) => setTimeout(r, 200));
    process.kill(oldPid, 'SIGKILL');
    const failed = await inFlight;
    expect(failed.error).toBeInstanceOf(ToolInputError);
    expect(failed.output).toMatch(
      /^Error: MCP server "everything" is unavailable: the connection was lost during tools\/call "trigger-long-running-operation"/,
    );
    expect(server.status).toBe('broken');
    expect(logger.warnings).toContain(
      'MCP server "everything" disconnected; the next operation reconnects once.',
    );
    const next = await invokeTool(byName(tools, 'echo'), { message: 'back again' });
    expect(next.output).toBe('Echo: back again');
    expect(server.status).toBe('connected');
    expect(server.pid).toBeGreaterThan(0);
    expect(server.pid).not.toBe(oldPid);
  });
});

describe('MCPServerStdio tool list caching', () => {
  it("serves the cache until invalidateToolsCache() and handles the server's tools/list_changed", async () => {
    const events: McpListToolsEvent[] = [];
    let changed = 0;
    const server = everythingStdio({
      cacheToolsList: true,
      stderr: 'ignore',
      onListTools: (e) => events.push(e),
      onToolsListChanged: () => changed++,
    });
    try {
      await server.connect();
      // server-everything registers its conditional tools after initialization and says so.
      await waitUntil(() => changed >= 1, 5_000, 'tools/list_changed from server-everything');
      const first = await server.listTools();
      expect(first.map((t) => t.name)).toContain('simulate-research-query');
      expect(await server.listTools()).toBe(first);
      expect(events).toHaveLength(1);
      expect(events[0].spanData).toEqual({
        kind: 'mcp_list_tools',
        server: 'everything',
        result: first.map((t) => t.name),
      });
      server.invalidateToolsCache();
      const second = await server.listTools();
      expect(second).not.toBe(first);
      expect(second.map((t) => t.name)).toEqual(first.map((t) => t.name));
      expect(events).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('asks the server every time without cacheToolsList', async () => {
    const events: McpListToolsEvent[] = [];
    const server = everythingStdio({ stderr: 'ignore', onListTools: (e) => events.push(e) });
    try {
      await server.connect();
      const a = await server.listTools();
      const b = await server.listTools();
      expect(a).not.toBe(b);
      expect(events).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});

describe('MCPServerStdio lifecycle', () => {
  it('close is idempotent, ends the process, and connect() reopens', async () => {
    const server = everythingStdio({ stderr: 'ignore' });
    await server.connect();
    const pid = server.pid!;
    expect(isAlive(pid)).toBe(true);
    await Promise.all([server.close(), server.close()]);
    await server.close();
    expect(server.status).toBe('closed');
    expect(server.pid).toBeUndefined();
    await waitUntil(() => !isAlive(pid), 5_000, 'the server process to exit');
    await expect(server.callTool('echo', { message: 'x' })).rejects.toMatchObject({
      reason: 'closed',
    });
    await server.connect();
    expect(server.pid).not.toBe(pid);
    expect((await server.callTool('echo', { message: 'again' })).content).toEqual([
      { type: 'text', text: 'Echo: again' },
    ]);
    await server.close();
  });

  it('refuses to work before connect() with a clear error', async () => {
    const server = everythingStdio();
    const error = await server.listTools().catch((e) => e);
    expect(error).toBeInstanceOf(MCPServerError);
    expect(error.reason).toBe('not_connected');
    expect(error.message).toContain('call connect() first');
  });

  it('fails to connect to a missing command with MCPServerError naming the server', async () => {
    const server = new MCPServerStdio({
      name: 'ghost',
      command: '/nonexistent/mcp-server',
      stderr: 'ignore',
    });
    const error = await server.connect().catch((e) => e);
    expect(error).toBeInstanceOf(MCPServerError);
    expect(error.message).toMatch(
      /^Could not connect to MCP server "ghost": spawn \/nonexistent\/mcp-server ENOENT/,
    );
    expect(server.status).toBe('idle');
    await server.close();
  });

  it('an aborted connect() rethrows the reason, leaves no connection, and a later connect() works', async () => {
    const server = everythingStdio({ stderr: 'ignore' });
    const before = new AbortController();
    const reason = new Error('cancelled');
    before.abort(reason);
    await expect(server.connect({ signal: before.signal })).rejects.toBe(reason);
    const during = new AbortController();
    setTimeout(() => during.abort(reason), 30);
    await expect(server.connect({ signal: during.signal })).rejects.toBe(reason);
    expect(server.status).toBe('idle');
    expect(server.pid).toBeUndefined();
    await server.connect();
    expect((await server.callTool('get-sum', { a: 1, b: 1 })).content).toEqual([
      { type: 'text', text: 'The sum of 1 and 1 is 2.' },
    ]);
    await server.close();
  });
});
