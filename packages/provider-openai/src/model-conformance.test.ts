import { describeModelConformance } from '@baton/testing/vitest';
import { jsonFixture, sseFixture, testModel } from './__fixtures__/fixtures.js';

describeModelConformance('openai-responses', (server) => testModel(server), {
  text: {
    response: jsonFixture('text.json'),
    text: 'It is sunny and 22 °C in Paris right now.',
    usage: { inputTokens: 36, outputTokens: 14 },
  },
  functionCall: {
    response: jsonFixture('function-call.json'),
    call: {
      callId: 'call_Wq8nN3kTz1pYbV6sR2mXcA4d',
      name: 'get_weather',
      arguments: { city: 'Paris' },
    },
  },
  streamedText: {
    response: sseFixture('text.chunks.txt'),
    text: 'It is sunny and 22 °C in Paris right now.',
    usage: { inputTokens: 36, outputTokens: 14 },
  },
  streamedToolCall: {
    response: sseFixture('tool-call.chunks.txt'),
    call: {
      callId: 'call_Zx9yW8vU7tS6rQ5pO4nM3lK2',
      name: 'get_weather',
      arguments: { city: 'Paris' },
    },
  },
  rateLimited: {
    response: jsonFixture('error-429-rate-limit.json', 429, { 'retry-after': '2' }),
    retryAfterMs: 2000,
  },
  serverError: {
    response: {
      kind: 'json',
      status: 500,
      body: {
        error: {
          message: 'The server had an error while processing your request. Sorry about that!',
          type: 'server_error',
          param: null,
          code: null,
        },
      },
    },
  },
  badRequest: { response: jsonFixture('error-400.json', 400) },
});
