/**
 * What the base URL tells traces (GenAI semantic conventions `gen_ai.provider.name`,
 * `server.address`, `server.port`), end to end: the generation span of a traced `run()` carries
 * the endpoint of the Chat Completions model that served it.
 */
import {
  Agent,
  createProviderRegistry,
  type GenerationSpanData,
  run,
  setTraceProcessors,
} from '@baton/kernel';
import { RecordingTraceProcessor, startFixtureServer } from '@baton/testing';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { ownJson } from './__fixtures__/harness.js';
import { ChatCompletionsModel } from './chat-completions-model.js';
import { createChatProvider } from './chat-provider.js';
import { endpointOf } from './endpoint.js';

afterEach(() => setTraceProcessors([]));

describe('endpointOf', () => {
  it.each([
    ['https://api.openai.com/v1', 'openai', 'api.openai.com', 443],
    [
      'https://my-res.openai.azure.com/openai/v1',
      'azure.ai.openai',
      'my-res.openai.azure.com',
      443,
    ],
    [
      'https://my-res.services.ai.azure.com/models',
      'azure.ai.inference',
      'my-res.services.ai.azure.com',
      443,
    ],
    ['https://api.deepseek.com', 'deepseek', 'api.deepseek.com', 443],
    ['https://api.groq.com/openai/v1', 'groq', 'api.groq.com', 443],
    ['https://api.mistral.ai/v1', 'mistral_ai', 'api.mistral.ai', 443],
    [
      'https://generativelanguage.googleapis.com/v1beta/openai/',
      'gcp.gemini',
      'generativelanguage.googleapis.com',
      443,
    ],
    ['https://api.x.ai/v1', 'x_ai', 'api.x.ai', 443],
    ['http://localhost:11434/v1', 'openai', 'localhost', 11434],
    ['http://[::1]:8000/v1', 'openai', '::1', 8000],
    ['http://vllm.internal/v1', 'openai', 'vllm.internal', 80],
  ])('%s → %s', (url, providerName, serverAddress, serverPort) => {
    expect(endpointOf(url)).toEqual({ providerName, serverAddress, serverPort });
  });

  it('an explicit provider name wins; an unparsable URL gives only the name', () => {
    expect(endpointOf('https://api.deepseek.com', 'ollama')).toMatchObject({
      providerName: 'ollama',
    });
    expect(endpointOf('not a url')).toEqual({ providerName: 'openai' });
  });
});

describe('generation spans carry the model endpoint', () => {
  it('a traced run() on a local server: gen_ai provider from the option, server.address/port of the server', async () => {
    const server = await startFixtureServer();
    try {
      const recorder = new RecordingTraceProcessor();
      setTraceProcessors([recorder]);
      server.enqueue({ kind: 'json', body: ownJson('text.json') });
      const registry = createProviderRegistry({
        local: createChatProvider({
          name: 'local',
          baseURL: `${server.url}/v1`,
          apiKey: 'k',
          providerName: 'ollama',
        }),
      });
      await run(new Agent({ name: 'a', instructions: 'x' }), 'hi', {
        modelProvider: registry,
        model: 'local:qwen3',
      });
      const generation = recorder.ended.find((s) => s.data.kind === 'generation')!
        .data as GenerationSpanData;
      expect(generation).toMatchObject({
        provider: 'local',
        providerName: 'ollama',
        serverAddress: '127.0.0.1',
        serverPort: Number(new URL(server.url).port),
      });
    } finally {
      await server.close();
    }
  });

  it('the model exposes the endpoint it derived', () => {
    const model = new ChatCompletionsModel({
      client: new OpenAI({ apiKey: 'k', baseURL: 'https://api.groq.com/openai/v1' }),
      modelId: 'llama',
    });
    expect(model.endpoint).toEqual({
      providerName: 'groq',
      serverAddress: 'api.groq.com',
      serverPort: 443,
    });
  });
});
