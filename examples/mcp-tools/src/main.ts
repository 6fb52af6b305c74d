/**
 * Example: an agent whose tools come from an MCP server.
 *
 * Starts the reference server `@modelcontextprotocol/server-everything` over stdio, gives its
 * tools to an agent through `McpCapability` (next to one local tool), and runs the agent with a
 * ScriptedModel that calls `echo`, `get-sum` and the local `shout` tool, so it needs no API key.
 * Swap the ScriptedModel for a real provider model to let a model choose the calls.
 *
 * Exits non-zero when the servers' answers are not the ones expected.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Agent, type FunctionCallOutputItem, run, tool } from '@baton/kernel';
import { MCPServerStdio, MCPServers, McpCapability } from '@baton/mcp';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { z } from 'zod';

const require = createRequire(import.meta.url);
const everythingEntry = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

const everything = new MCPServerStdio({
  name: 'everything',
  command: process.execPath,
  args: [everythingEntry, 'stdio'],
  cacheToolsList: true,
  timeoutMs: 10_000,
});
const servers = new MCPServers([everything], { strict: true });

const shout = tool({
  name: 'shout',
  description: 'Upper-cases a text.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text.toUpperCase(),
});

const model = new ScriptedModel([
  [
    fc('echo', { message: 'hello MCP' }, 'call_echo'),
    fc('get-sum', { a: 19, b: 23 }, 'call_sum'),
    fc('shout', { text: 'local tools still work' }, 'call_shout'),
  ],
  [msg('The server echoed, added 19 and 23, and the local tool shouted.')],
]);

const agent = new Agent({
  name: 'mcp-example',
  instructions: 'Answer with the help of your tools.',
  model,
  tools: [shout],
  capabilities: [new McpCapability(servers, { convertSchemasToStrict: true })],
});

const expected: Record<string, string> = {
  call_echo: 'Echo: hello MCP',
  call_sum: 'The sum of 19 and 23 is 42.',
  call_shout: 'LOCAL TOOLS STILL WORK',
};

async function main(): Promise<number> {
  await servers.connect();
  try {
    const result = await run(agent, 'Echo a greeting, add 19 and 23, and shout something.');
    const outputs = result.newItems
      .map((item) => item.raw_item)
      .filter((raw): raw is FunctionCallOutputItem => raw.type === 'function_call_output');
    let failures = 0;
    for (const [callId, want] of Object.entries(expected)) {
      const got = outputs.find((o) => o.call_id === callId)?.output;
      const ok = got === want;
      if (!ok) failures++;
      console.log(
        `${ok ? 'ok  ' : 'FAIL'} ${callId}: ${JSON.stringify(got)}${ok ? '' : ` (expected ${JSON.stringify(want)})`}`,
      );
    }
    const strictTools = model.requests[0].tools
      .filter((t) => t.type === 'function' && t.strict)
      .map((t) => (t as { name: string }).name);
    if (!strictTools.includes('get-sum')) {
      failures++;
      console.log('FAIL get-sum was not sent with a strict schema');
    }
    console.log(`final output: ${String(result.finalOutput)}`);
    return failures;
  } finally {
    await servers.close();
  }
}

main().then(
  (failures) => {
    if (failures > 0) {
      console.error(`mcp-tools example: ${failures} check(s) failed.`);
      process.exitCode = 1;
    } else console.log('mcp-tools example: all checks passed.');
  },
  (error) => {
    console.error('mcp-tools example failed:', error);
    process.exitCode = 1;
  },
);
