/**
 * Prompt objects, server-side compaction and tool search through `run()`, the real `openai`
 * client and the fixture server, in both modes. The compaction turn replays the recorded
 * `openai-compaction.1` traffic; tool search has no recording, so its bodies follow the API
 * reference (see __fixtures__/platform-wire.ts).
 */
import { Agent, RunState, run, tool } from '@baton/kernel';
import { chunksToSse, type FixtureServer, startFixtureServer } from '@baton/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordedText, testClient } from './__fixtures__/fixtures.js';
import {
  functionCallItem,
  messageItem,
  toolSearchItems,
  wireResponse,
} from './__fixtures__/platform-wire.js';
import { hostedMcpTool } from './hosted-tools.js';
import { createOpenAIProvider } from './openai-provider.js';
import { OpenAIResponsesModel } from './openai-responses-model.js';
import { toolNamespace, toolSearchTool } from './tool-search.js';

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  await server.close();
});

const modes = [false, true] as const;
const provider = () => createOpenAIProvider({ baseURL: `${server.url}/v1`, apiKey: 'test' });

async function drive(
  agent: Agent<any, any>,
  input: string | RunState<any, any>,
  opts: Record<string, unknown>,
  stream: boolean,
) {
  if (!stream) return run(agent, input as string, opts);
  const result = await run(agent, input as string, { ...opts, stream: true });
  for await (const _ of result);
  await result.completed;
  return result;
}

describe('prompt objects', () => {
  for (const stream of modes) {
    it(`sends prompt { id, version, variables } and no model when the model is the provider's default (stream: ${stream})`, async () => {
      server.enqueue(wireResponse([messageItem('Hello from the prompt.')], stream));
      const agent = new Agent<{ name: string }>({
        name: 'greeter',
        prompt: (ctx) => ({
          id: 'pmpt_68b0c29740048196bd3a6e6ac3c4d0e20ed9a13f0d15bf5e',
          version: '2',
          variables: {
            customer_name: ctx.context.name,
            logo: { type: 'input_image', image_url: 'https://example.com/l.png' },
          },
        }),
      });
      const result = await drive(
        agent,
        'Hi',
        { modelProvider: provider(), context: { name: 'Ada' } },
        stream,
      );
      expect(result.finalOutput).toBe('Hello from the prompt.');
      const body = server.requests[0].body;
      expect(body.prompt).toEqual({
        id: 'pmpt_68b0c29740048196bd3a6e6ac3c4d0e20ed9a13f0d15bf5e',
        version: '2',
        variables: {
          customer_name: 'Ada',
          logo: { type: 'input_image', image_url: 'https://example.com/l.png' },
        },
      });
      expect(body).not.toHaveProperty('model');
      expect(body).not.toHaveProperty('instructions');
    });
  }

  it('keeps a model the user chose, and instructions beside the prompt', async () => {
    server.enqueue(wireResponse([messageItem('ok')], false));
    const agent = new Agent({ name: 'a', instructions: 'Be brief.', prompt: { id: 'pmpt_1' } });
    await run(agent, 'Hi', { modelProvider: provider(), model: 'gpt-5.4' });
    expect(server.requests[0].body).toMatchObject({
      model: 'gpt-5.4',
      instructions: 'Be brief.',
      prompt: { id: 'pmpt_1' },
    });
  });
});

describe('server-side compaction (recorded openai-compaction.1)', () => {
  for (const stream of modes) {
    it(`sends modelSettings.contextManagement and drops the items before the latest compaction item from the next request (stream: ${stream})`, async () => {
      const recorded = stream
        ? {
            kind: 'sse' as const,
            body: chunksToSse(recordedText('openai-compaction.1.chunks.txt'), 'responses'),
          }
        : { kind: 'json' as const, body: JSON.parse(recordedText('openai-compaction.1.json')) };
      server.enqueue(recorded, wireResponse([messageItem('Next answer.')], stream));
      const agent = new Agent({
        name: 'docs',
        modelSettings: { store: false, contextManagement: { compactThreshold: 20000 } },
      });
      const opts = { modelProvider: provider(), model: 'gpt-5.2' };
      const first = await drive(agent, 'Explain testing strategies.', opts, stream);
      const compaction = first.history.find((i) => i.type === 'compaction');
      expect(compaction).toMatchObject({
        type: 'compaction',
        encrypted_content: expect.any(String),
      });
      expect(server.requests[0].body.context_management).toEqual([
        { type: 'compaction', compact_threshold: 20000 },
      ]);
      const second = await drive(
        agent,
        [...first.history, { type: 'message', role: 'user', content: 'And E2E?' }] as any,
        opts,
        stream,
      );
      expect(second.finalOutput).toBe('Next answer.');
      const input = server.requests[1].body.input;
      // The user question and the answer before the compaction item are not sent again.
      expect(input.map((i: { type: string }) => i.type)).toEqual(['compaction', 'message']);
      expect(input[0].encrypted_content).toBe(
        (compaction as { encrypted_content: string }).encrypted_content,
      );
      expect(input[1]).toMatchObject({ role: 'user', content: 'And E2E?' });
      // The transcript keeps everything: only the request leaves it out.
      expect(second.history.filter((i) => i.type === 'message')).toHaveLength(4);
    });
  }
});

describe('tool search with deferred tools', () => {
  const tools = (seen: string[]) => {
    const getCustomer = tool({
      name: 'get_customer',
      description: 'Fetch a CRM customer profile.',
      parameters: z.object({ customer_id: z.string() }),
      needsApproval: true,
      execute: ({ customer_id }) => {
        seen.push(customer_id);
        return { customer_id, tier: 'enterprise' };
      },
    });
    const listOrders = tool({
      name: 'list_open_orders',
      description: 'List open orders for a customer.',
      parameters: z.object({ customer_id: z.string() }),
      execute: () => [],
    });
    const eta = tool({
      name: 'get_shipping_eta',
      description: 'Look up a shipment ETA.',
      parameters: z.object({ tracking_number: z.string() }),
      deferLoading: true,
      execute: () => 'tomorrow',
    });
    return [
      ...toolNamespace({
        name: 'crm',
        description: 'CRM tools for customer lookups.',
        tools: [getCustomer, listOrders],
      }),
      eta,
      hostedMcpTool({
        serverLabel: 'docs',
        serverUrl: 'https://mcp.example.com/sse',
        deferLoading: true,
      }),
      toolSearchTool(),
    ];
  };

  for (const stream of modes) {
    it(`sends deferred tools with defer_loading inside their namespace, runs a loaded tool after approval and a RunState round trip (stream: ${stream})`, async () => {
      const seen: string[] = [];
      const agent = new Agent({ name: 'ops', instructions: 'Help.', tools: tools(seen) });
      const loaded = [
        {
          type: 'namespace',
          name: 'crm',
          description: 'CRM tools for customer lookups.',
          tools: [
            {
              type: 'function',
              name: 'get_customer',
              description: 'Fetch a CRM customer profile.',
              defer_loading: true,
              strict: true,
              parameters: {
                type: 'object',
                properties: { customer_id: { type: 'string' } },
                required: ['customer_id'],
                additionalProperties: false,
              },
            },
          ],
        },
      ];
      server.enqueue(
        wireResponse(
          [
            ...toolSearchItems({ paths: ['crm'] }, loaded),
            functionCallItem('get_customer', { customer_id: 'c42' }, 'call_c42', 'crm'),
          ],
          stream,
        ),
        wireResponse([messageItem('Avery Chen is an enterprise customer.')], stream),
      );
      const opts = { modelProvider: provider(), model: 'gpt-5.4' };
      const first = await drive(agent, 'Look up c42.', opts, stream);
      const body = server.requests[0].body;
      expect(body.tools).toEqual([
        {
          type: 'namespace',
          name: 'crm',
          description: 'CRM tools for customer lookups.',
          tools: [
            expect.objectContaining({
              type: 'function',
              name: 'get_customer',
              defer_loading: true,
            }),
            expect.objectContaining({
              type: 'function',
              name: 'list_open_orders',
              defer_loading: true,
            }),
          ],
        },
        expect.objectContaining({
          type: 'function',
          name: 'get_shipping_eta',
          defer_loading: true,
        }),
        expect.objectContaining({ type: 'mcp', server_label: 'docs', defer_loading: true }),
        { type: 'tool_search' },
      ]);
      expect(first.interruptions.map((i) => i.tool_name)).toEqual(['get_customer']);
      const state = await RunState.fromString(agent, first.state.toString());
      state.approve(state.interruptions[0]);
      const second = await drive(agent, state, opts, stream);
      expect(second.finalOutput).toBe('Avery Chen is an enterprise customer.');
      expect(seen).toEqual(['c42']);
      const input = server.requests[1].body.input;
      // What the search loaded is still in the next request (no created_by: it is output-only).
      expect(input.map((i: { type: string }) => i.type)).toEqual([
        'message',
        'tool_search_call',
        'tool_search_output',
        'function_call',
        'function_call_output',
      ]);
      expect(input[2]).toEqual({
        id: expect.any(String),
        type: 'tool_search_output',
        execution: 'server',
        call_id: null,
        status: 'completed',
        tools: loaded,
      });
      expect(input[3]).toMatchObject({
        name: 'get_customer',
        namespace: 'crm',
        call_id: 'call_c42',
      });
      expect(server.requests).toHaveLength(2);
    });
  }

  it('refuses deferred tools without a tool search tool before sending anything', async () => {
    const deferred = tool({ name: 'x', description: 'x', deferLoading: true, execute: () => 'x' });
    const agent = new Agent({ name: 'a', tools: [deferred] });
    await expect(run(agent, 'hi', { modelProvider: provider(), model: 'gpt-5.4' })).rejects.toThrow(
      /no tool search tool.*toolSearchTool\(\)/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('refuses two descriptions for one namespace, and hosted tools in a namespace', () => {
    const a = tool({
      name: 'a',
      description: 'a',
      execute: () => '',
      namespace: { name: 'n', description: 'one' },
    });
    const b = tool({
      name: 'b',
      description: 'b',
      execute: () => '',
      namespace: { name: 'n', description: 'two' },
    });
    const model = new OpenAIResponsesModel('gpt-5.4', { client: testClient(server) });
    const defs = [a, b].map((t) => ({
      type: 'function' as const,
      name: t.name,
      description: '',
      parameters: t.parameters,
      strict: true,
      namespace: t.namespace,
    }));
    expect(() =>
      (model as any).body({
        input: [],
        tools: defs,
        modelSettings: {},
        tracing: { enabled: false, includeSensitiveData: false },
      }),
    ).toThrow(/namespace "n" give two descriptions/);
    expect(() =>
      toolNamespace({ name: 'n', description: 'd', tools: [toolSearchTool() as any] }),
    ).toThrow(/only function tools/);
    expect(() => toolNamespace({ name: 'bad name', description: 'd', tools: [] })).toThrow(
      /invalid name/,
    );
  });
});

describe('Model.supports', () => {
  it('declares prompts, tool search, OpenAI hosted tools and native tools (native off with nativeTools: false)', () => {
    const model = new OpenAIResponsesModel('gpt-5.4', { client: testClient(server) });
    for (const f of [
      'prompt',
      'tool_search',
      'hosted_tools:openai',
      'native_tool:computer_call',
      'native_tool:shell_call',
      'native_tool:apply_patch_call',
      'native_tool:local_shell_call',
    ])
      expect(model.supports(f)).toBe(true);
    for (const f of ['hosted_tools:anthropic', 'native_tool:bash_call', 'unknown'])
      expect(model.supports(f)).toBe(false);
    const plain = new OpenAIResponsesModel('gpt-4.1', {
      client: testClient(server),
      nativeTools: false,
    });
    expect(plain.supports('native_tool:shell_call')).toBe(false);
    expect(plain.supports('prompt')).toBe(true);
  });
});

describe('a deferred hosted MCP server (recorded openai-mcp-tool-approval streams)', () => {
  const recorded = (name: string, stream: boolean) => {
    const chunks = recordedText(`${name}.chunks.txt`);
    if (stream) return { kind: 'sse' as const, body: chunksToSse(chunks, 'responses') };
    const lines = chunks.split('\n').filter((l) => l.trim() !== '');
    return { kind: 'json' as const, body: JSON.parse(lines[lines.length - 1]).response };
  };
  for (const stream of modes) {
    it(`sends the server with defer_loading beside tool_search, pauses on its approval request, answers it once after a RunState round trip (stream: ${stream})`, async () => {
      const agent = new Agent({
        name: 'Linker',
        tools: [
          hostedMcpTool({
            serverLabel: 'zip1',
            serverUrl: 'https://zip1.io/mcp',
            requireApproval: 'always',
            deferLoading: true,
          }),
          toolSearchTool(),
        ],
      });
      server.enqueue(
        recorded('openai-mcp-tool-approval.1', stream),
        recorded('openai-mcp-tool-approval.4', stream),
      );
      const opts = { modelProvider: provider(), model: 'gpt-5.4' };
      const first = await drive(agent, 'Shorten https://example.com', opts, stream);
      expect(server.requests[0].body.tools).toEqual([
        {
          type: 'mcp',
          server_label: 'zip1',
          server_url: 'https://zip1.io/mcp',
          require_approval: 'always',
          defer_loading: true,
        },
        { type: 'tool_search' },
      ]);
      expect(first.interruptions).toHaveLength(1);
      const state = await RunState.fromString(agent, first.state.toString());
      state.approve(state.interruptions[0]);
      const second = await drive(agent, state, opts, stream);
      expect(typeof second.finalOutput).toBe('string');
      const answers = server.requests[1].body.input.filter(
        (i: { type: string }) => i.type === 'mcp_approval_response',
      );
      expect(answers).toEqual([
        {
          type: 'mcp_approval_response',
          approval_request_id: first.interruptions[0].call_id,
          approve: true,
        },
      ]);
      expect(server.requests).toHaveLength(2);
    });
  }
});
