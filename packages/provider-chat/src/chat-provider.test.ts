import { createProviderRegistry } from '@baton/kernel';
import { type FixtureServer, startFixtureServer } from '@baton/testing';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeRequest, ownJson } from './__fixtures__/harness.js';
import { ChatCompletionsModel } from './chat-completions-model.js';
import { createChatProvider } from './chat-provider.js';

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  await server.close();
});

describe('createChatProvider', () => {
  it("returns ChatCompletionsModels with provider id 'chat' that call baseURL with apiKey", async () => {
    const provider = createChatProvider({ baseURL: `${server.url}/v1`, apiKey: 'sk-local' });
    const model = await provider.getModel('gpt-4.1-mini');
    expect(model).toBeInstanceOf(ChatCompletionsModel);
    expect(model.provider).toBe('chat');
    expect(model.modelId).toBe('gpt-4.1-mini');
    expect(model.specificationVersion).toBe('v1');
    server.enqueue({ kind: 'json', body: ownJson('text.json') });
    await model.getResponse(makeRequest());
    expect(server.requests[0].path).toBe('/v1/chat/completions');
    expect(server.requests[0].headers.authorization).toBe('Bearer sk-local');
    expect(server.requests[0].body.model).toBe('gpt-4.1-mini');
  });

  it('uses the given name as provider id for providerOptions and provider_data', async () => {
    const provider = createChatProvider({ baseURL: server.url, apiKey: 'k', name: 'deepseek' });
    const model = await provider.getModel('deepseek-chat');
    expect(model.provider).toBe('deepseek');
    server.enqueue({ kind: 'json', body: ownJson('text.json') });
    await model.getResponse(
      makeRequest({
        modelSettings: {
          providerOptions: { deepseek: { max_tokens: 64 }, chat: { max_tokens: 1 } },
        },
      }),
    );
    expect(server.requests[0].body.max_tokens).toBe(64);
  });

  it('uses a given client, sending with maxRetries 0 even when the client would retry', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: server.url, maxRetries: 3 });
    const model = await createChatProvider({ client }).getModel('m');
    server.enqueue({
      kind: 'json',
      status: 500,
      body: { error: { message: 'boom', type: 'server_error', param: null, code: null } },
    });
    await expect(model.getResponse(makeRequest())).rejects.toMatchObject({
      kind: 'ModelCallError',
      statusCode: 500,
      retryable: true,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('needs a model name unless defaultModel is set', async () => {
    expect(() => createChatProvider({ apiKey: 'k' }).getModel()).toThrow(/needs a model name/);
    const model = await createChatProvider({ apiKey: 'k', defaultModel: 'llama3' }).getModel();
    expect(model.modelId).toBe('llama3');
  });

  it('does not throw at creation without a key, and getModel explains how to pass one', () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const provider = createChatProvider({ baseURL: server.url });
      expect(() => provider.getModel('m')).toThrow(
        expect.objectContaining({
          kind: 'UserError',
          message: expect.stringContaining('Pass apiKey'),
        }),
      );
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });

  it("routes 'chat:some-model' through createProviderRegistry", async () => {
    const registry = createProviderRegistry({
      chat: createChatProvider({ baseURL: server.url, apiKey: 'k' }),
    });
    const model = await registry.getModel('chat:some-model');
    expect(model.provider).toBe('chat');
    expect(model.modelId).toBe('some-model');
    server.enqueue({ kind: 'json', body: ownJson('text.json') });
    await model.getResponse(makeRequest());
    expect(server.requests[0].body.model).toBe('some-model');
  });
});
