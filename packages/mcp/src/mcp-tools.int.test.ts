import { RunContext, UserError } from '@baton/kernel';
import { type MCPServerStdio, mcpTools } from '@baton/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byName, invokeTool } from './__fixtures__/invoke-tool.js';
import { everythingStdio, fixtureStdio } from './__fixtures__/reference-servers.js';

describe('mcpTools over the real servers', () => {
  const alpha = everythingStdio({ name: 'alpha', stderr: 'ignore', cacheToolsList: true });
  const beta = everythingStdio({ name: 'beta', stderr: 'ignore', cacheToolsList: true });
  const gamma = everythingStdio({
    name: 'gamma',
    stderr: 'ignore',
    toolNamePrefix: 'g_',
    toolFilter: { allowedToolNames: ['echo', 'get-sum'] },
    requireApproval: { toolNames: ['get-sum'] },
  });
  const fixture = fixtureStdio({ stderr: 'ignore' });
  const all: MCPServerStdio[] = [alpha, beta, gamma, fixture];

  beforeAll(async () => {
    await Promise.all(all.map((s) => s.connect()));
  });
  afterAll(async () => {
    await Promise.all(all.map((s) => s.close()));
  });

  it('applies a server filter, a prefix and a server approval policy', async () => {
    const tools = await mcpTools([gamma]);
    expect(tools.map((t) => t.name)).toEqual(['g_echo', 'g_get-sum']);
    const ctx = new RunContext({});
    expect(await byName(tools, 'g_get-sum').needsApproval(ctx, { a: 1, b: 2 }, 'c1')).toBe(true);
    expect(await byName(tools, 'g_echo').needsApproval(ctx, { message: 'x' }, 'c2')).toBe(false);
    expect((await invokeTool(byName(tools, 'g_get-sum'), { a: 3, b: 4 })).output).toBe(
      'The sum of 3 and 4 is 7.',
    );
  });

  it('applies a blocked list from the options on top, and leaves out task-only tools', async () => {
    const names = (
      await mcpTools([alpha], { toolFilter: { blockedToolNames: ['echo', 'get-env'] } })
    ).map((t) => t.name);
    expect(names).toContain('get-sum');
    expect(names).not.toContain('echo');
    expect(names).not.toContain('get-env');
    // simulate-research-query requires MCP task-based execution, which plain tools/call cannot do.
    expect((await alpha.listTools()).map((t) => t.name)).toContain('simulate-research-query');
    expect(names).not.toContain('simulate-research-query');
  });

  it('evaluates a function filter per turn with the run context and the agent', async () => {
    const seen: string[] = [];
    const tools = await mcpTools([alpha], {
      toolFilter: ({ runContext, agent, serverName, tool }) => {
        seen.push(`${serverName}/${agent.name}/${tool.name}`);
        return (
          tool.name !== 'get-env' || (runContext.context as { admin?: boolean }).admin === true
        );
      },
    });
    const getEnv = byName(tools, 'get-env');
    expect(await getEnv.isEnabled(new RunContext({ admin: false }), { name: 'helper' })).toBe(
      false,
    );
    expect(await getEnv.isEnabled(new RunContext({ admin: true }), { name: 'helper' })).toBe(true);
    expect(
      await byName(tools, 'echo').isEnabled(new RunContext({ admin: false }), { name: 'helper' }),
    ).toBe(true);
    expect(seen).toContain('alpha/helper/get-env');
  });

  it('refuses two servers exposing the same name with a UserError naming both', async () => {
    const error = await mcpTools([alpha, beta]).catch((e) => e);
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toBe(
      'MCP tool name "echo" is exposed by server "alpha" (tool "echo") and by server "beta" (tool "echo"). Set toolNamePrefix on one of the servers or pass includeServerInToolNames: true.',
    );
  });

  it('includeServerInToolNames and toolNamePrefix both resolve the collision; calls reach the right server', async () => {
    const named = await mcpTools([alpha, beta], { includeServerInToolNames: true });
    expect(named.map((t) => t.name)).toEqual(
      expect.arrayContaining(['alpha__echo', 'beta__echo', 'beta__get-sum']),
    );
    expect((await invokeTool(byName(named, 'beta__echo'), { message: 'b' })).output).toBe(
      'Echo: b',
    );
    const mixed = await mcpTools([alpha, gamma]);
    expect(mixed.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'g_echo']));
  });

  it('keeps exposed names valid for the API: sanitized and at most 64 characters', async () => {
    const long = everythingStdio({
      name: `my server.v2 ${'x'.repeat(60)}`,
      stderr: 'ignore',
      toolFilter: { allowedToolNames: ['echo'] },
    });
    try {
      const [tool] = await mcpTools([long], { includeServerInToolNames: true });
      expect(tool.name).toMatch(/^my_server_v2_x+_[0-9a-f]{8}$/);
      expect(tool.name.length).toBe(64);
      expect((await invokeTool(tool, { message: 'long' })).output).toBe('Echo: long');
    } finally {
      await long.close();
    }
  });

  it('converts every real schema of server-everything to strict when asked, and sends them as they are otherwise', async () => {
    const strict = await mcpTools([alpha], { convertSchemasToStrict: true });
    expect(strict.length).toBeGreaterThan(8);
    for (const tool of strict) {
      expect(tool.strict).toBe(true);
      expect(tool.parameters.additionalProperties).toBe(false);
      expect(tool.parameters.required).toEqual(Object.keys(tool.parameters.properties as object));
    }
    expect(byName(strict, 'get-sum').parameters).toEqual({
      type: 'object',
      properties: {
        a: { type: 'number', description: 'First number' },
        b: { type: 'number', description: 'Second number' },
      },
      required: ['a', 'b'],
      additionalProperties: false,
    });
    expect(byName(strict, 'trigger-long-running-operation').parameters.properties).toEqual({
      duration: { description: 'Duration of the operation in seconds', type: ['number', 'null'] },
      steps: { description: 'Number of steps in the operation', type: ['number', 'null'] },
    });
    const loose = await mcpTools([alpha]);
    for (const tool of loose) expect(tool.strict).toBe(false);
    const listed = (await alpha.listTools()).find((t) => t.name === 'get-sum')!;
    const { $schema: _s, ...withoutDialect } = listed.inputSchema as Record<string, unknown>;
    expect(byName(loose, 'get-sum').parameters).toEqual(withoutDialect);
  });

  it('falls back to a non-strict tool when the schema cannot be made strict, and the call still works', async () => {
    const tools = await mcpTools([fixture], { convertSchemasToStrict: true });
    const labels = byName(tools, 'set-labels');
    expect(labels.strict).toBe(false);
    expect(labels.parameters).toMatchObject({
      type: 'object',
      properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } },
    });
    expect(byName(tools, 'add-tool').strict).toBe(true);
    expect((await invokeTool(labels, { labels: { b: '2', a: '1' } })).output).toBe('a=1,b=2');
  });

  it('approval policies: always, and a function of the call', async () => {
    const always = await mcpTools([alpha], {
      requireApproval: 'always',
      toolFilter: { allowedToolNames: ['echo'] },
    });
    expect(await always[0].needsApproval(new RunContext({}), { message: 'x' }, 'c')).toBe(true);
    const seen: unknown[] = [];
    const byArgs = await mcpTools([alpha], {
      toolFilter: { allowedToolNames: ['get-sum'] },
      requireApproval: (request) => {
        seen.push({ server: request.serverName, tool: request.toolName, callId: request.callId });
        return (request.arguments.a as number) > 100;
      },
    });
    const ctx = new RunContext({});
    expect(await byArgs[0].needsApproval(ctx, { a: 500, b: 1 }, 'c1')).toBe(true);
    expect(await byArgs[0].needsApproval(ctx, { a: 5, b: 1 }, 'c2')).toBe(false);
    expect(seen).toEqual([
      { server: 'alpha', tool: 'get-sum', callId: 'c1' },
      { server: 'alpha', tool: 'get-sum', callId: 'c2' },
    ]);
  });
});

describe('tools/list_changed after the list was cached', () => {
  it('invalidates the cache so the next listing shows the new tool', async () => {
    let changed = 0;
    const server = fixtureStdio({
      cacheToolsList: true,
      stderr: 'ignore',
      onToolsListChanged: () => changed++,
    });
    try {
      await server.connect();
      const before = await server.listTools();
      expect(before.map((t) => t.name)).toEqual(['set-labels', 'add-tool']);
      expect(await server.listTools()).toBe(before);
      expect((await server.callTool('add-tool', {})).content).toEqual([
        { type: 'text', text: 'added' },
      ]);
      const deadline = Date.now() + 5_000;
      while (changed === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(changed).toBe(1);
      const after = await server.listTools();
      expect(after.map((t) => t.name)).toEqual(['set-labels', 'add-tool', 'extra-tool']);
      const extra = byName(await mcpTools([server]), 'extra-tool');
      expect((await invokeTool(extra, {})).output).toBe('extra!');
    } finally {
      await server.close();
    }
  });
});
