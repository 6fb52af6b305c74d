import OpenAI, { AzureOpenAI } from 'openai';
import { describe, expect, it } from 'vitest';
import { openAIEndpointOf } from './openai-endpoint.js';
import { OpenAIResponsesModel } from './openai-responses-model.js';

describe('OpenAIResponsesModel.endpoint (GenAI gen_ai.provider.name, server.address, server.port)', () => {
  it('is openai for api.openai.com and for servers it does not know, azure.ai.openai for Azure hosts', () => {
    const model = (client: OpenAI) => new OpenAIResponsesModel('gpt-x', { client }).endpoint;
    expect(model(new OpenAI({ apiKey: 'k' }))).toEqual({
      providerName: 'openai',
      serverAddress: 'api.openai.com',
      serverPort: 443,
    });
    expect(
      model(
        new AzureOpenAI({
          apiKey: 'k',
          endpoint: 'https://baton-res.openai.azure.com',
          apiVersion: '2025-04-01-preview',
        }),
      ),
    ).toEqual({
      providerName: 'azure.ai.openai',
      serverAddress: 'baton-res.openai.azure.com',
      serverPort: 443,
    });
    expect(model(new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:8123/v1' }))).toEqual({
      providerName: 'openai',
      serverAddress: '127.0.0.1',
      serverPort: 8123,
    });
    expect(
      new OpenAIResponsesModel('x', { client: new OpenAI({ apiKey: 'k' }), providerName: 'x_ai' })
        .endpoint.providerName,
    ).toBe('x_ai');
    expect(openAIEndpointOf('https://res.cognitiveservices.azure.com/openai/v1').providerName).toBe(
      'azure.ai.openai',
    );
  });
});
