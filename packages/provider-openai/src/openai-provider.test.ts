import { createProviderRegistry, UserError } from '@baton/kernel';
import { type FixtureServer, startFixtureServer } from '@baton/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonFixture, testClient, userRequest } from './__fixtures__/fixtures.js';
import { createOpenAIProvider, DEFAULT_OPENAI_MODEL } from './openai-provider.js';
import { OpenAIResponsesModel } from './openai-responses-model.js';

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  await server.close();
});

describe('createOpenAIProvider', () => {
  it('builds Responses models that call baseURL with the key and organization, without client retries', async () => {
    const provider = createOpenAIProvider({
      apiKey: 'sk-test',
      baseURL: `${server.url}/v1`,
      organization: 'org-baton',
    });
    const model = provider.getModel('gpt-x');
    expect(model).toBeInstanceOf(OpenAIResponsesModel);
    expect(model).toMatchObject({
      specificationVersion: 'v1',
      provider: 'openai',
      modelId: 'gpt-x',
    });
    server.enqueue({
      kind: 'json',
      status: 503,
      body: { error: { message: 'overloaded', type: 'server_error', param: null, code: null } },
    });
    const error = await model.getResponse(userRequest('hi')).catch((e) => e);
    expect(error).toMatchObject({ statusCode: 503, retryable: true });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].headers.authorization).toBe('Bearer sk-test');
    expect(server.requests[0].headers['openai-organization']).toBe('org-baton');
    expect(server.requests[0].body.model).toBe('gpt-x');
  });

  it('uses the default model when no name is given', () => {
    const provider = createOpenAIProvider({ apiKey: 'k', baseURL: `${server.url}/v1` });
    expect(provider.getModel().modelId).toBe(DEFAULT_OPENAI_MODEL);
    expect(
      createOpenAIProvider({ apiKey: 'k', defaultModel: 'gpt-4.1-mini' }).getModel('').modelId,
    ).toBe('gpt-4.1-mini');
  });

  it('routes "openai:<model>" through the kernel provider registry', async () => {
    const registry = createProviderRegistry({
      openai: createOpenAIProvider({ apiKey: 'test', baseURL: `${server.url}/v1` }),
    });
    const model = await registry.getModel('openai:gpt-x');
    server.enqueue(jsonFixture('text.json'));
    const response = await model.getResponse(userRequest('hi'));
    expect(response.output[0]).toMatchObject({ type: 'message', role: 'assistant' });
    expect(server.requests[0].body.model).toBe('gpt-x');
  });

  it('uses a given client as is (its baseURL and key), ignoring the other options', async () => {
    const provider = createOpenAIProvider({
      client: testClient(server),
      apiKey: 'ignored',
      baseURL: 'http://127.0.0.1:1/v1',
    });
    server.enqueue(jsonFixture('text.json'));
    await provider.getModel('gpt-4.1').getResponse(userRequest('hi'));
    expect(server.requests[0].headers.authorization).toBe('Bearer test-key');
  });

  it('throws UserError at getModel when there is no API key anywhere; registering needs none', () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const provider = createOpenAIProvider({ baseURL: `${server.url}/v1` });
      expect(() => provider.getModel('gpt-x')).toThrow(UserError);
      expect(() => provider.getModel('gpt-x')).toThrow(/OPENAI_API_KEY/);
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });
});
