/** The kernel's Model v1 conformance suite, on recorded Anthropic traffic and the real SDK. */
import { chunksToSse } from '@baton/testing';
import { describeModelConformance } from '@baton/testing/vitest';
import { ownFixture, recorded } from './__fixtures__/harness.js';
import { createAnthropicProvider } from './anthropic-provider.js';

describeModelConformance(
  'AnthropicMessagesModel',
  (server) =>
    createAnthropicProvider({ apiKey: 'test-dummy-key', baseURL: server.url }).getModel(
      'claude-sonnet-4-6',
    ),
  {
    text: {
      response: { kind: 'json', body: recorded('anthropic-text.json') },
      text: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?",
      usage: { inputTokens: 12, outputTokens: 29 },
    },
    functionCall: {
      response: { kind: 'json', body: recorded('anthropic-json-other-tool.1.json') },
      call: {
        callId: 'toolu_01PQjhxo3eirCdKNvCJrKc8f',
        name: 'weather',
        arguments: { location: 'San Francisco' },
      },
    },
    streamedText: {
      response: {
        kind: 'sse',
        body: chunksToSse(recorded('anthropic-text.chunks.txt'), 'anthropic'),
      },
      text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
      usage: { inputTokens: 12, outputTokens: 30 },
    },
    streamedToolCall: {
      response: {
        kind: 'sse',
        body: chunksToSse(recorded('anthropic-json-other-tool.1.chunks.txt'), 'anthropic'),
      },
      call: {
        callId: 'toolu_019Zvehfe1XQWweT1pm7okyt',
        name: 'weather',
        arguments: { location: 'San Francisco' },
      },
    },
    rateLimited: {
      response: {
        kind: 'json',
        status: 429,
        headers: { 'retry-after': '3' },
        body: ownFixture('rate-limit-429.json'),
      },
      retryAfterMs: 3000,
    },
    serverError: {
      response: { kind: 'json', status: 529, body: ownFixture('overloaded-529.json') },
    },
    badRequest: {
      response: {
        kind: 'json',
        status: 400,
        body: recorded('test_anthropic_explicit_effort_xhigh_unsupported_model_errors.1.json'),
      },
    },
  },
);
