import { type Item, UserError } from '@baton/kernel';
import { type FixtureServer, startFixtureServer } from '@baton/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  jsonFixture,
  testModel,
  thrown,
  userRequest,
  weatherTool,
} from './__fixtures__/fixtures.js';
import {
  buildResponsesRequest,
  toResponsesInput,
  toResponsesToolChoice,
} from './convert-to-openai-input.js';
import { codeInterpreterTool, hostedMcpTool, webSearchTool } from './hosted-tools.js';

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  await server.close();
});

describe('toResponsesInput', () => {
  it('removes ids minted by other providers but keeps the items', () => {
    const items: Item[] = [
      { type: 'function_call', id: 'toolu_01A', call_id: 'toolu_01A', name: 'f', arguments: '{}' },
      { type: 'message', role: 'assistant', id: 'chatcmpl-9', content: 'hi' },
    ];
    expect(toResponsesInput(items)).toEqual([
      { type: 'function_call', call_id: 'toolu_01A', name: 'f', arguments: '{}' },
      { type: 'message', role: 'assistant', content: 'hi' },
    ]);
  });

  it('keeps a stored reasoning item by id (store default), drops it with store:false when it has no encrypted content', () => {
    const item: Item = { type: 'reasoning', id: 'rs_9', summary: [], encrypted_content: null };
    expect(toResponsesInput([item])).toEqual([{ type: 'reasoning', id: 'rs_9', summary: [] }]);
    expect(toResponsesInput([item], { store: false })).toEqual([]);
  });

  it('passes hosted items, compaction, item references and MCP approvals through, minus provider_data', () => {
    const items = [
      { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAA' },
      {
        type: 'web_search_call',
        id: 'ws_1',
        status: 'completed',
        action: { type: 'search', query: 'q' },
      },
      { type: 'item_reference', id: 'msg_1' },
      {
        type: 'mcp_approval_response',
        approval_request_id: 'mcpr_1',
        approve: false,
        provider_data: { openai: { x: 1 } },
      },
      { type: 'hosted_tool_call', id: 'srvtoolu_1', provider_data: { anthropic: {} } },
    ] as Item[];
    expect(toResponsesInput(items)).toEqual([
      { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAA' },
      {
        type: 'web_search_call',
        id: 'ws_1',
        status: 'completed',
        action: { type: 'search', query: 'q' },
      },
      { type: 'item_reference', id: 'msg_1' },
      { type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: false },
    ]);
  });

  it('does not mutate the transcript items it converts', () => {
    const item: Item = {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'x' }],
      provider_data: { a: 1 },
    };
    const before = structuredClone(item);
    toResponsesInput([item]);
    expect(item).toEqual(before);
  });
});

describe('tool_choice and request assembly', () => {
  it('maps modes as is, an MCP tool name to its server label, other names to function choices', () => {
    const tools = [hostedMcpTool({ serverLabel: 'zip1', serverUrl: 'https://zip1.io/mcp' })];
    expect(toResponsesToolChoice('required', tools)).toBe('required');
    expect(toResponsesToolChoice('mcp_zip1', tools)).toEqual({ type: 'mcp', server_label: 'zip1' });
    expect(toResponsesToolChoice('lookup', tools)).toEqual({ type: 'function', name: 'lookup' });
    expect(toResponsesToolChoice(undefined, tools)).toBeUndefined();
  });

  it('adds reasoning.encrypted_content to a user include list only once, and only for store:false', () => {
    const base = { input: [], tools: [], tracing: { enabled: false, includeSensitiveData: false } };
    const stateless = buildResponsesRequest(
      {
        ...base,
        modelSettings: {
          store: false,
          include: ['reasoning.encrypted_content', 'file_search_call.results'],
        },
      },
      { modelId: 'm' },
    );
    expect(stateless.include).toEqual(['reasoning.encrypted_content', 'file_search_call.results']);
    expect(
      buildResponsesRequest({ ...base, modelSettings: { store: true } }, { modelId: 'm' }).include,
    ).toBeUndefined();
  });
});

describe('request bodies the openai client sends', () => {
  it('sends hosted tools as their Responses tool JSON beside function tools, and a hosted tool_choice', async () => {
    server.enqueue(jsonFixture('text.json'));
    const tools = [
      weatherTool,
      webSearchTool({ userLocation: { country: 'FR', city: 'Paris' }, searchContextSize: 'low' }),
      codeInterpreterTool(),
      hostedMcpTool({
        serverLabel: 'zip1',
        serverUrl: 'https://zip1.io/mcp',
        requireApproval: 'never',
      }),
    ];
    await testModel(server).getResponse(
      userRequest('Search', { tools, modelSettings: { toolChoice: 'web_search' } }),
    );
    const body = server.requests[0].body;
    expect(body.tool_choice).toEqual({ type: 'web_search' });
    expect(body.tools.slice(1)).toEqual([
      {
        type: 'web_search',
        user_location: { type: 'approximate', country: 'FR', city: 'Paris' },
        search_context_size: 'low',
      },
      { type: 'code_interpreter', container: { type: 'auto' } },
      {
        type: 'mcp',
        server_label: 'zip1',
        server_url: 'https://zip1.io/mcp',
        require_approval: 'never',
      },
    ]);
  });

  it('refuses a hosted tool of another provider with UserError before sending anything', async () => {
    const foreign = {
      type: 'hosted_tool' as const,
      name: 'web_search',
      providerId: 'anthropic',
      providerData: { type: 'web_search_20250305' },
    };
    const error = await thrown(() =>
      testModel(server).getResponse(userRequest('x', { tools: [foreign] })),
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toContain('"web_search" belongs to provider "anthropic"');
    expect(server.requests).toHaveLength(0);
  });

  it('maps every setting and request field, with providerOptions.openai merged last', async () => {
    server.enqueue(jsonFixture('function-call.json'));
    await testModel(server, 'gpt-5.1', {
      contextManagement: { compactThresholdTokens: 200_000 },
    }).getResponse(
      userRequest('Weather?', {
        tools: [weatherTool],
        systemInstructions: 'Be brief.',
        previousResponseId: 'resp_prev_1',
        promptCacheKey: 'run-42',
        modelSettings: {
          toolChoice: 'get_weather',
          parallelToolCalls: false,
          reasoning: { effort: 'low' },
          maxOutputTokens: 500,
          temperature: 0.2,
          topP: 0.9,
          truncation: 'auto',
          store: true,
          include: ['web_search_call.action.sources'],
          providerOptions: {
            openai: { service_tier: 'flex', temperature: 0.5 },
            anthropic: { ignored: true },
          },
        },
      }),
    );
    const { input: _input, tools: _tools, ...rest } = server.requests[0].body;
    expect(rest).toMatchInlineSnapshot(`
      {
        "context_management": [
          {
            "compact_threshold": 200000,
            "type": "compaction",
          },
        ],
        "include": [
          "web_search_call.action.sources",
        ],
        "instructions": "Be brief.",
        "max_output_tokens": 500,
        "model": "gpt-5.1",
        "parallel_tool_calls": false,
        "previous_response_id": "resp_prev_1",
        "prompt_cache_key": "run-42",
        "reasoning": {
          "effort": "low",
        },
        "service_tier": "flex",
        "store": true,
        "temperature": 0.5,
        "tool_choice": {
          "name": "get_weather",
          "type": "function",
        },
        "top_p": 0.9,
        "truncation": "auto",
      }
    `);
  });

  it('sends a server-managed conversation id as conversation and only the given items', async () => {
    server.enqueue(jsonFixture('text.json'));
    await testModel(server).getResponse(
      userRequest('And tomorrow?', {
        conversationId: 'conv_689667905b048191b4740501625afd940c7533ace33a2dab',
      }),
    );
    expect(server.requests[0].body.conversation).toBe(
      'conv_689667905b048191b4740501625afd940c7533ace33a2dab',
    );
    expect(server.requests[0].body.previous_response_id).toBeUndefined();
    expect(server.requests[0].body.input).toEqual([
      { type: 'message', role: 'user', content: 'And tomorrow?' },
    ]);
  });

  it('sends a previous turn back in wire shape: reasoning kept with encrypted_content, non-wire fields stripped', async () => {
    server.enqueue(jsonFixture('text.json'));
    const input = [
      { type: 'message' as const, role: 'user' as const, content: 'Weather?' },
      {
        type: 'reasoning' as const,
        id: 'rs_1',
        summary: [{ type: 'summary_text' as const, text: 'Think' }],
        encrypted_content: 'gAAAAABenc',
        provider_data: { openai: { note: 1 } },
      },
      {
        type: 'reasoning' as const,
        summary: [{ type: 'summary_text' as const, text: 'Claude thinking' }],
        provider_data: { anthropic: { signature: 's' } },
      },
      {
        type: 'function_call' as const,
        id: 'fc_1',
        call_id: 'call_1',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        status: 'completed' as const,
      },
      { type: 'function_call_output' as const, call_id: 'call_1', output: '{"temperatureC":22}' },
      {
        type: 'message' as const,
        role: 'assistant' as const,
        id: 'msg_1',
        status: 'completed' as const,
        phase: 'final_answer',
        content: [{ type: 'output_text' as const, text: 'Sunny.' }],
      },
    ];
    await testModel(server).getResponse(
      userRequest('', { input, modelSettings: { store: false } }),
    );
    expect(server.requests[0].body.input).toEqual([
      { type: 'message', role: 'user', content: 'Weather?' },
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'Think' }],
        encrypted_content: 'gAAAAABenc',
      },
      {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_1',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        status: 'completed',
      },
      { type: 'function_call_output', call_id: 'call_1', output: '{"temperatureC":22}' },
      {
        type: 'message',
        role: 'assistant',
        id: 'msg_1',
        status: 'completed',
        phase: 'final_answer',
        content: [{ type: 'output_text', text: 'Sunny.', annotations: [] }],
      },
    ]);
  });
});
