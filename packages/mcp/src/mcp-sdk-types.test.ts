/**
 * The structural copies in mcp-sdk-types.ts stay equal to the SDK's types: each direction must
 * be assignable (a compile error here, in `npm run typecheck`, after an SDK upgrade that changed
 * one). The runtime part checks that real SDK transports are accepted where Baton takes a
 * transport.
 */
import type {
  OAuthClientProvider,
  OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type {
  FetchLike,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';
import { describe, expect, it } from 'vitest';
import type {
  McpFetch,
  McpOAuthClientProvider,
  McpOAuthDiscoveryState,
  McpTransport,
  McpTransportSendOptions,
} from './mcp-sdk-types.js';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <T extends true>(value: T) => value;

describe('structural copies of the MCP SDK types', () => {
  it('are assignable both ways to the SDK types', () => {
    expect([
      same<Same<McpTransport, Transport>>(true),
      same<Same<McpTransportSendOptions, TransportSendOptions>>(true),
      same<Same<McpFetch, FetchLike>>(true),
      same<Same<McpOAuthClientProvider, OAuthClientProvider>>(true),
      same<Same<McpOAuthDiscoveryState, OAuthDiscoveryState>>(true),
    ]).toEqual([true, true, true, true, true]);
  });

  it('accepts the SDK transports as McpTransport', () => {
    const transports: McpTransport[] = [
      new StdioClientTransport({ command: 'node' }),
      new StreamableHTTPClientTransport(new URL('http://127.0.0.1:1/mcp')),
      ...InMemoryTransport.createLinkedPair(),
    ];
    for (const t of transports) expect(typeof t.start).toBe('function');
  });
});
