import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { anthropicEndpointOf } from './anthropic-endpoint.js';
import { AnthropicMessagesModel } from './anthropic-messages-model.js';

describe('AnthropicMessagesModel.endpoint (GenAI gen_ai.provider.name, server.address, server.port)', () => {
  it('is anthropic for api.anthropic.com and proxies; aws.bedrock / gcp.vertex_ai for those hosts', () => {
    expect(
      new AnthropicMessagesModel('claude-x', { client: new Anthropic({ apiKey: 'k' }) }).endpoint,
    ).toEqual({
      providerName: 'anthropic',
      serverAddress: 'api.anthropic.com',
      serverPort: 443,
    });
    expect(anthropicEndpointOf('http://127.0.0.1:9000')).toEqual({
      providerName: 'anthropic',
      serverAddress: '127.0.0.1',
      serverPort: 9000,
    });
    expect(
      anthropicEndpointOf('https://bedrock-runtime.us-east-1.amazonaws.com').providerName,
    ).toBe('aws.bedrock');
    expect(anthropicEndpointOf('https://us-east5-aiplatform.googleapis.com/v1').providerName).toBe(
      'gcp.vertex_ai',
    );
  });
});
