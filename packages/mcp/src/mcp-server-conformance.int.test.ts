/**
 * The MCP server conformance suite of `@baton/testing/vitest` on the reference servers, driven
 * through `@baton/mcp`: server-everything over stdio and over Streamable HTTP, and the SDK-built
 * fixture server; and `McpCapability` through the capability conformance suite.
 */
import { MCPServerStreamableHttp, McpCapability, mcpTools } from '@baton/mcp';
import { describeCapabilityConformance, describeMcpServerConformance } from '@baton/testing/vitest';
import { afterAll, beforeAll } from 'vitest';
import {
  everythingStdio,
  fixtureStdio,
  type HttpEverything,
  startEverythingHttp,
} from './__fixtures__/reference-servers.js';

const calls = [
  { tool: 'echo', arguments: { message: 'hello conformance' }, expect: 'Echo: hello conformance' },
  { tool: 'get-sum', arguments: { a: 2, b: 3 }, expect: 'The sum of 2 and 3 is 5.' },
];
const invalidCall = { tool: 'get-sum', arguments: { a: 'two' } };

describeMcpServerConformance('server-everything (stdio)', {
  server: () => everythingStdio({ stderr: 'ignore' }),
  mcpTools,
  calls,
  invalidCall,
});

let http: HttpEverything;
beforeAll(async () => {
  http = await startEverythingHttp('streamableHttp');
});
afterAll(() => http?.stop());
describeMcpServerConformance('server-everything (Streamable HTTP)', {
  server: () => new MCPServerStreamableHttp({ name: 'everything-http', url: http.url }),
  mcpTools,
  calls,
  invalidCall,
});

describeMcpServerConformance('the SDK-built fixture server (stdio)', {
  server: () => fixtureStdio({ stderr: 'ignore' }),
  mcpTools,
  calls: [{ tool: 'set-labels', arguments: { labels: { b: '2', a: '1' } }, expect: 'a=1,b=2' }],
  invalidCall: { tool: 'set-labels', arguments: { labels: 'none' } },
});

// One server for every run of the capability suite (McpCapability leaves connections open).
const shared = everythingStdio({ name: 'everything-cap', stderr: 'ignore', cacheToolsList: true });
afterAll(() => shared.close());
describeCapabilityConformance(
  'McpCapability (server-everything)',
  () => new McpCapability([shared]),
  {
    calls: [{ tool: 'echo', arguments: { message: 'from the capability suite' } }],
  },
);
