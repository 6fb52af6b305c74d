/**
 * `describeMcpServerConformance` on the toy MCP server: correct (every case must pass) and with
 * each planted defect (the case that targets it must fail). Run by
 * `mcp-server-conformance-kit.test.ts` in a child vitest.
 */
import { fileURLToPath } from 'node:url';
import { MCPServerStdio, mcpTools } from '@baton/mcp';
import { describeMcpServerConformance, type McpServerConformanceOptions } from '@baton/testing/vitest';

const TOY = fileURLToPath(new URL('../toy-mcp-server.mjs', import.meta.url));
export const TOY_BUGS = [
  'unstable_list',
  'bad_tool_name',
  'schema_not_object',
  'crashes_on_invalid_args',
  'shared_result',
  'hangs_on_unknown_tool',
] as const;

const options = (bug?: string): McpServerConformanceOptions<MCPServerStdio> => ({
  server: () =>
    new MCPServerStdio({
      name: 'toy',
      command: process.execPath,
      args: bug ? [TOY, bug] : [TOY],
      stderr: 'ignore' as const,
    }),
  mcpTools,
  calls: [
    { tool: 'add', arguments: { a: 2, b: 3 }, expect: 'sum 5' },
    { tool: 'add', arguments: { a: 4, b: 4 }, expect: 'sum 8' },
  ],
  invalidCall: { tool: 'add', arguments: { a: 'two', b: 3 } },
  requestTimeoutMs: 3_000,
});

describeMcpServerConformance('toy', options());
for (const bug of TOY_BUGS) describeMcpServerConformance(`toy with ${bug}`, options(bug));
