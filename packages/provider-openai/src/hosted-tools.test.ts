import { describe, expect, it } from 'vitest';
import {
  codeInterpreterTool,
  fileSearchTool,
  hostedMcpTool,
  imageGenerationTool,
  webSearchTool,
} from './hosted-tools.js';

describe('hosted tools', () => {
  it('webSearchTool: kernel HostedTool with the Responses web_search JSON; unset options omitted', () => {
    expect(webSearchTool()).toEqual({
      type: 'hosted_tool',
      name: 'web_search',
      providerId: 'openai',
      providerData: { type: 'web_search' },
    });
    expect(
      webSearchTool({
        allowedDomains: ['openai.com'],
        userLocation: { country: 'GB', timezone: 'Europe/London' },
      }).providerData,
    ).toEqual({
      type: 'web_search',
      user_location: { type: 'approximate', country: 'GB', timezone: 'Europe/London' },
      filters: { allowed_domains: ['openai.com'] },
    });
  });

  it('fileSearchTool: vector_store_ids, max_num_results, filters and ranking_options in wire names', () => {
    const tool = fileSearchTool({
      vectorStoreIds: ['vs_1'],
      maxNumResults: 5,
      filters: { type: 'eq', key: 'lang', value: 'en' },
      rankingOptions: { ranker: 'auto', score_threshold: 0.2 },
    });
    expect(tool).toMatchObject({ type: 'hosted_tool', name: 'file_search', providerId: 'openai' });
    expect(tool.providerData).toEqual({
      type: 'file_search',
      vector_store_ids: ['vs_1'],
      max_num_results: 5,
      filters: { type: 'eq', key: 'lang', value: 'en' },
      ranking_options: { ranker: 'auto', score_threshold: 0.2 },
    });
  });

  it('codeInterpreterTool: an auto container by default, with files and memory limit, or a container id', () => {
    expect(codeInterpreterTool().providerData).toEqual({
      type: 'code_interpreter',
      container: { type: 'auto' },
    });
    expect(
      codeInterpreterTool({ container: { fileIds: ['file_1'], memoryLimit: '4g' } }).providerData,
    ).toEqual({
      type: 'code_interpreter',
      container: { type: 'auto', file_ids: ['file_1'], memory_limit: '4g' },
    });
    expect(codeInterpreterTool({ container: 'cntr_123' }).providerData).toEqual({
      type: 'code_interpreter',
      container: 'cntr_123',
    });
  });

  it('imageGenerationTool: options in wire names; extra fields merged last', () => {
    const tool = imageGenerationTool({
      quality: 'high',
      outputFormat: 'webp',
      partialImages: 2,
      extra: { action: 'generate' },
    });
    expect(tool.name).toBe('image_generation');
    expect(tool.providerData).toEqual({
      type: 'image_generation',
      quality: 'high',
      output_format: 'webp',
      partial_images: 2,
      action: 'generate',
    });
  });

  it('hostedMcpTool: one tool name per server label; url, approval and allowed tools in wire names', () => {
    const tool = hostedMcpTool({
      serverLabel: 'docs',
      serverUrl: 'https://example.com/mcp',
      allowedTools: ['search'],
      requireApproval: 'never',
      headers: { 'x-k': 'v' },
    });
    expect(tool.name).toBe('mcp_docs');
    expect(tool.providerData).toEqual({
      type: 'mcp',
      server_label: 'docs',
      server_url: 'https://example.com/mcp',
      headers: { 'x-k': 'v' },
      allowed_tools: ['search'],
      require_approval: 'never',
    });
    expect(
      hostedMcpTool({ serverLabel: 'gmail', connectorId: 'connector_gmail', authorization: 'tok' })
        .providerData,
    ).toEqual({
      type: 'mcp',
      server_label: 'gmail',
      connector_id: 'connector_gmail',
      authorization: 'tok',
    });
  });
});
