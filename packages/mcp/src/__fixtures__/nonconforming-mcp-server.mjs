#!/usr/bin/env node
// A stdio MCP server written on raw JSON-RPC (no SDK, so nothing checks what it sends): its
// tools/call results break the MCP schema, like a buggy server in another language would. The
// tool `pid` answers correctly with the process id (to see whether the client reconnected).
import { createInterface } from 'node:readline';

const bad = {
  unknown_content_type: { content: [{ type: 'video', url: 'https://example.com/v.mp4' }] },
  null_block: { content: [null] },
  text_not_string: { content: [{ type: 'text', text: 5 }] },
  content_not_array: { content: 'hello' },
  is_error_not_boolean: { isError: 'yes', content: [{ type: 'text', text: 'bad' }] },
};
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  const answer = (result) => send({ jsonrpc: '2.0', id: m.id, result });
  if (m.method === 'initialize')
    return answer({
      protocolVersion: m.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'nonconforming', version: '1.0.0' },
    });
  if (m.method === 'tools/list')
    return answer({
      tools: [...Object.keys(bad), 'pid'].map((name) => ({
        name,
        description: name,
        inputSchema: { type: 'object', properties: {} },
      })),
    });
  if (m.method === 'tools/call')
    return answer(
      m.params.name === 'pid'
        ? { content: [{ type: 'text', text: String(process.pid) }] }
        : bad[m.params.name],
    );
  answer({});
});
