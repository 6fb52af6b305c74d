#!/usr/bin/env node
// A small MCP server on the SDK's low-level Server, for the MCP server conformance suite's own
// tests: `node toy-mcp-server.mjs` is correct; `node toy-mcp-server.mjs <bug>` plants one defect
// seen in real servers (see toy-mcp-bugs in the kit spec).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const bug = process.argv[2];
let listings = 0;
const server = new Server({ name: 'toy', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => {
  listings++;
  const number = { type: 'number' };
  return {
    tools: [
      {
        name: bug === 'unstable_list' ? `add_v${listings}` : 'add',
        description: 'Adds two numbers.',
        inputSchema: { type: 'object', properties: { a: number, b: number }, required: ['a', 'b'] },
      },
      {
        name: bug === 'bad_tool_name' ? 'echo text' : 'echo',
        description: 'Echoes a message.',
        inputSchema:
          bug === 'schema_not_object'
            ? { type: 'string' }
            : { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
      },
    ],
  };
});

let last = 0; // for the shared_result bug
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args = {} } = request.params;
  if (name === 'add' || name.startsWith('add_v')) {
    if (typeof args.a !== 'number' || typeof args.b !== 'number') {
      if (bug === 'crashes_on_invalid_args') process.exit(3);
      return { ...text('a and b must be numbers'), isError: true };
    }
    if (bug === 'shared_result') {
      last = args.a + args.b;
      await pause(20 + Math.random() * 30);
      return text(`sum ${last}`);
    }
    await pause(10);
    return text(`sum ${args.a + args.b}`);
  }
  if (name === 'echo' || name === 'echo text') return text(`echo: ${args.message}`);
  if (bug === 'hangs_on_unknown_tool') return new Promise(() => {});
  throw new Error(`unknown tool ${name}`);
});

await server.connect(new StdioServerTransport());
