import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CapabilityRun, type FunctionTool, RunContext } from '@baton/kernel';
import { MCPServerError, MCPServers, McpCapability } from '@baton/mcp';
import { afterAll, describe, expect, it } from 'vitest';
import { byName, invokeTool } from './__fixtures__/invoke-tool.js';
import {
  everythingStdio,
  filesystemStdio,
  recordingLogger,
} from './__fixtures__/reference-servers.js';

const root = mkdtempSync(join(tmpdir(), 'baton-mcp-cap-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function runOf(agentName: string, context: unknown = {}): CapabilityRun {
  const runContext = new RunContext(context);
  const data: Record<string, unknown> = {};
  return {
    runContext,
    agent: { name: agentName },
    runId: runContext.runId,
    getModel: () => Promise.reject(new Error('no model in this test')),
    state: {
      get: (key) => data[key],
      set: (key, value) => {
        data[key] = value;
      },
    },
  };
}

async function toolsFor(capability: McpCapability, run: CapabilityRun): Promise<FunctionTool[]> {
  await capability.setup(run);
  return (await capability.tools(run)) as FunctionTool[];
}

describe('McpCapability', () => {
  it('setup connects servers, tools lists them per run, teardown leaves connections to the owner', async () => {
    const everything = everythingStdio({ stderr: 'ignore' });
    const fs = filesystemStdio(root, { stderr: 'ignore' });
    const capability = new McpCapability([everything, fs]);
    expect(capability.specificationVersion).toBe('v1');
    expect(capability.name).toBe('mcp');
    try {
      const run = runOf('assistant');
      const tools = await toolsFor(capability, run);
      expect([everything.status, fs.status]).toEqual(['connected', 'connected']);
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(['echo', 'get-sum', 'read_text_file']),
      );
      expect((await invokeTool(byName(tools, 'get-sum'), { a: 19, b: 23 })).output).toBe(
        'The sum of 19 and 23 is 42.',
      );
      await capability.teardown();
      expect([everything.status, fs.status]).toEqual(['connected', 'connected']);
    } finally {
      await everything.close();
      await fs.close();
    }
  });

  it("a function toolFilter receives each run's context and agent", async () => {
    const everything = everythingStdio({ stderr: 'ignore' });
    const fs = filesystemStdio(root, { stderr: 'ignore' });
    const capability = new McpCapability([everything, fs], {
      toolFilter: ({ runContext, agent, serverName, tool }) =>
        agent.name === 'reader'
          ? serverName === 'filesystem' && tool.name.startsWith('read_')
          : (runContext.context as { allow: string[] }).allow.includes(tool.name),
    });
    try {
      const reader = await toolsFor(capability, runOf('reader'));
      expect(reader.map((t) => t.name).sort()).toEqual([
        'read_file',
        'read_media_file',
        'read_multiple_files',
        'read_text_file',
      ]);
      const other = await toolsFor(capability, runOf('calculator', { allow: ['get-sum', 'echo'] }));
      expect(other.map((t) => t.name)).toEqual(['echo', 'get-sum']);
    } finally {
      await everything.close();
      await fs.close();
    }
  });

  it('leaves out a server that fails (with a warning) unless strict, where the run fails', async () => {
    const logger = recordingLogger();
    const good = everythingStdio({ stderr: 'ignore' });
    const bad = filesystemStdio(join(root, 'missing'), { name: 'broken-fs' });
    try {
      const lenient = await toolsFor(new McpCapability([good, bad], { logger }), runOf('a'));
      expect(lenient.map((t) => t.name)).toContain('echo');
      expect(lenient.map((t) => t.name)).not.toContain('read_text_file');
      expect(
        logger.warnings.some((w) =>
          w.startsWith('MCP server "broken-fs" failed to connect and is left out'),
        ),
      ).toBe(true);
      const strict = new McpCapability([good, bad], { strict: true, logger });
      await expect(strict.setup(runOf('a'))).rejects.toBeInstanceOf(MCPServerError);
      // A server closed by its owner cannot be listed: lenient skips it, strict fails.
      const closed = everythingStdio({ name: 'closed-one', stderr: 'ignore' });
      await closed.connect();
      await closed.close();
      const skipped = await new McpCapability([good, closed], {
        logger,
        includeServerInToolNames: true,
      }).tools(runOf('a'));
      expect(skipped.every((t) => (t as FunctionTool).name.startsWith('everything__'))).toBe(true);
      expect(
        logger.warnings.some((w) =>
          w.startsWith(
            'MCP server "closed-one" could not list its tools and is left out of this run',
          ),
        ),
      ).toBe(true);
      await expect(
        new McpCapability([closed], { strict: true }).tools(runOf('a')),
      ).rejects.toMatchObject({ reason: 'closed' });
    } finally {
      await good.close();
      await bad.close();
    }
  });

  it('connects an MCPServers manager that was not connected yet in setup', async () => {
    const everything = everythingStdio({ stderr: 'ignore' });
    const servers = new MCPServers([everything], { logger: recordingLogger() });
    try {
      const capability = new McpCapability(servers, {
        toolFilter: { allowedToolNames: ['get-sum'] },
      });
      expect(servers.isConnected).toBe(false);
      const tools = await toolsFor(capability, runOf('a'));
      expect(servers.isConnected).toBe(true);
      expect(everything.status).toBe('connected');
      expect((await invokeTool(tools[0], { a: 4, b: 5 })).output).toBe('The sum of 4 and 5 is 9.');
    } finally {
      await servers.close();
    }
    expect(servers.isConnected).toBe(false);
    expect(everything.status).toBe('closed');
  });

  it('draws on the connected servers of an MCPServers manager', async () => {
    const servers = new MCPServers(
      [
        everythingStdio({ stderr: 'ignore' }),
        filesystemStdio(join(root, 'nope'), { name: 'broken-fs' }),
      ],
      {
        logger: recordingLogger(),
      },
    );
    try {
      await servers.connect();
      const capability = new McpCapability(servers, { toolFilter: { allowedToolNames: ['echo'] } });
      expect(capability.servers.map((s) => s.name)).toEqual(['everything']);
      const tools = await toolsFor(capability, runOf('a'));
      expect(tools.map((t) => t.name)).toEqual(['echo']);
      expect((await invokeTool(tools[0], { message: 'managed' })).output).toBe('Echo: managed');
    } finally {
      await servers.close();
    }
  });
});
