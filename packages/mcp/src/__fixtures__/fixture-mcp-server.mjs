#!/usr/bin/env node
// A small MCP server built with the official SDK's McpServer, for what the reference servers
// cannot show on demand: a tools/list_changed notification after the client listed tools, and
// a tool whose schema cannot be made OpenAI-strict (a free-form record).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'baton-fixture', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });

server.registerTool(
  'set-labels',
  { description: 'Stores free-form labels', inputSchema: { labels: z.record(z.string(), z.string()) } },
  async ({ labels }) => ({
    content: [{ type: 'text', text: Object.keys(labels).sort().map((k) => `${k}=${labels[k]}`).join(',') }],
  }),
);

let extra;
server.registerTool('add-tool', { description: 'Registers the tool "extra-tool"', inputSchema: {} }, async () => {
  if (!extra) {
    extra = server.registerTool('extra-tool', { description: 'Appeared later', inputSchema: {} }, async () => ({
      content: [{ type: 'text', text: 'extra!' }],
    }));
  }
  return { content: [{ type: 'text', text: 'added' }] };
});

await server.connect(new StdioServerTransport());
