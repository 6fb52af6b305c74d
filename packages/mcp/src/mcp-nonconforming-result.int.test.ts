/**
 * A server that answers `tools/call` with a result breaking the MCP schema (unknown content type,
 * a null block, wrong field types): the SDK refuses the result with its schema error. That is a
 * protocol fault of a server that did answer — not a lost connection: the tool fails with a
 * `protocol` MCPServerError the model sees, the connection (and the server process) stays.
 */
import { ToolInputError } from '@baton/kernel';
import { MCPServerError, MCPServerStdio, mcpTools } from '@baton/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byName, invokeTool } from './__fixtures__/invoke-tool.js';

const script = new URL('./__fixtures__/nonconforming-mcp-server.mjs', import.meta.url).pathname;

describe('MCPServerStdio with a server whose tools/call results break the MCP schema', () => {
  const server = new MCPServerStdio({ name: 'nc', command: process.execPath, args: [script] });
  const pid = async () =>
    ((await server.callTool('pid')).content[0] as { type: 'text'; text: string }).text;

  beforeAll(async () => {
    await server.connect();
  });
  afterAll(async () => {
    await server.close();
  });

  const cases: [string, RegExp][] = [
    ['unknown_content_type', /content\.0/],
    ['null_block', /content\.0/],
    ['text_not_string', /content\.0/],
    ['content_not_array', /content/],
    ['is_error_not_boolean', /isError/],
  ];
  for (const [tool, issue] of cases) {
    it(`${tool}: a protocol MCPServerError naming the issue; the connection and process stay`, async () => {
      const before = await pid();
      const error = await server.callTool(tool).catch((e) => e);
      expect(error).toBeInstanceOf(MCPServerError);
      expect(error.reason).toBe('protocol');
      expect(error.operation).toBe('call_tool');
      expect(error.toolName).toBe(tool);
      expect(error.message).toMatch(
        new RegExp(
          `MCP server "nc" answered tools/call "${tool}" with a result that does not follow the MCP specification`,
        ),
      );
      expect(error.message).toMatch(issue);
      expect(error.message).not.toMatch(/connection was lost|may or may not have run/);
      expect(server.status).toBe('connected');
      expect(await pid()).toBe(before);
    });
  }

  it('through the function tool the model sees the protocol error, and the next call works', async () => {
    const tools = await mcpTools([server]);
    const before = await pid();
    const call = await invokeTool(byName(tools, 'unknown_content_type'), {});
    expect(call.error).toBeInstanceOf(ToolInputError);
    expect(call.output).toMatch(/does not follow the MCP specification/);
    expect(server.status).toBe('connected');
    expect((await invokeTool(byName(tools, 'pid'), {})).output).toBe(before);
  });
});
