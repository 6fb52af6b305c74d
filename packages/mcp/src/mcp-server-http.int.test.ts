import { ToolInputError } from '@baton/kernel';
import { MCPServerSSE, MCPServerStreamableHttp, mcpTools } from '@baton/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byName, invokeTool } from './__fixtures__/invoke-tool.js';
import {
  type HttpEverything,
  recordingLogger,
  startEverythingHttp,
  waitUntil,
} from './__fixtures__/reference-servers.js';

describe('MCPServerStreamableHttp against server-everything (streamableHttp on 127.0.0.1)', () => {
  let http: HttpEverything;
  beforeAll(async () => {
    http = await startEverythingHttp('streamableHttp');
  });
  afterAll(async () => {
    await http?.stop();
  });

  it('lists the real tools and calls echo and get-sum with the real answers', async () => {
    const server = new MCPServerStreamableHttp({ url: http.url, headers: { 'x-test': 'baton' } });
    expect(server.name).toBe(`127.0.0.1:${http.port}/mcp`);
    try {
      await server.connect();
      const tools = await mcpTools([server]);
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-sum']));
      expect((await invokeTool(byName(tools, 'echo'), { message: 'over http' })).output).toBe(
        'Echo: over http',
      );
      expect((await invokeTool(byName(tools, 'get-sum'), { a: 1.5, b: 2 })).output).toBe(
        'The sum of 1.5 and 2 is 3.5.',
      );
    } finally {
      await server.close();
      await server.close();
    }
    expect(server.status).toBe('closed');
  });

  it('a server that goes away is noticed between calls, gives clear tool errors, and the next call after it is back reconnects', async () => {
    const own = await startEverythingHttp('streamableHttp');
    const logger = recordingLogger();
    const server = new MCPServerStreamableHttp({
      name: 'remote',
      url: own.url,
      logger,
      connectTimeoutMs: 5_000,
    });
    let restarted: HttpEverything | undefined;
    try {
      await server.connect();
      const echo = byName(await mcpTools([server]), 'echo');
      expect((await invokeTool(echo, { message: 'one' })).output).toBe('Echo: one');
      await own.stop();
      // The broken event stream is noticed without a call (a ping that fails).
      await waitUntil(() => server.status === 'broken', 10_000, 'the loss to be noticed');
      expect(logger.warnings).toContain(
        'MCP server "remote" disconnected; the next operation reconnects once.',
      );
      const lost = await invokeTool(echo, { message: 'two' });
      expect(lost.error).toBeInstanceOf(ToolInputError);
      expect(lost.output).toMatch(
        /^Error: MCP server "remote" is unavailable: the connection was lost and reconnecting failed/,
      );
      const stillDown = await invokeTool(echo, { message: 'three' });
      expect(stillDown.error).toBeInstanceOf(ToolInputError);
      expect(stillDown.output).toMatch(
        /^Error: MCP server "remote" is unavailable: the connection was lost and reconnecting failed/,
      );
      restarted = await startEverythingHttp('streamableHttp', own.port);
      expect((await invokeTool(echo, { message: 'four' })).output).toBe('Echo: four');
      expect(server.status).toBe('connected');
      expect(logger.warnings).toContain(
        'MCP server "remote" disconnected; the next operation reconnects once.',
      );
    } finally {
      await server.close();
      await own.stop();
      await restarted?.stop();
    }
  });
});

describe('MCPServerSSE against server-everything (sse on 127.0.0.1)', () => {
  let http: HttpEverything;
  beforeAll(async () => {
    http = await startEverythingHttp('sse');
  });
  afterAll(async () => {
    await http?.stop();
  });

  it('lists the real tools and calls echo and get-sum with the real answers', async () => {
    const server = new MCPServerSSE({ name: 'everything-sse', url: http.url });
    try {
      await server.connect();
      const names = (await server.listTools()).map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum']));
      expect(await server.callTool('echo', { message: 'over sse' })).toEqual({
        content: [{ type: 'text', text: 'Echo: over sse' }],
      });
      expect(await server.callTool('get-sum', { a: 20, b: 22 })).toEqual({
        content: [{ type: 'text', text: 'The sum of 20 and 22 is 42.' }],
      });
    } finally {
      await server.close();
    }
  });
});
