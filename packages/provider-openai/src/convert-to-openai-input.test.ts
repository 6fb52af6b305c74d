import type { Item } from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import {
  buildResponsesRequest,
  toResponsesInput,
  toResponsesToolChoice,
} from './convert-to-openai-input.js';
import { hostedMcpTool } from './hosted-tools.js';

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
      {
        type: 'web_search_call',
        id: 'ws_1',
        status: 'completed',
        action: { type: 'search', query: 'q' },
      },
      { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAA' },
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
      {
        type: 'web_search_call',
        id: 'ws_1',
        status: 'completed',
        action: { type: 'search', query: 'q' },
      },
      { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAA' },
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
