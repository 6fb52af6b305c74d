/** Runs the shared `Model` v1 conformance suite from @baton/testing against ChatCompletionsModel. */
import { chunksToSse, readFixture, recordedFixturePath } from '@baton/testing';
import { describeModelConformance } from '@baton/testing/vitest';
import OpenAI from 'openai';
import { ownFixture, ownJson } from './__fixtures__/harness.js';
import { ChatCompletionsModel } from './chat-completions-model.js';

describeModelConformance(
  'ChatCompletionsModel (@baton/provider-chat)',
  (server) =>
    new ChatCompletionsModel({
      client: new OpenAI({ apiKey: 'sk-test-dummy', baseURL: server.url, maxRetries: 0 }),
      modelId: 'gpt-4.1-mini',
    }),
  {
    text: {
      response: { kind: 'json', body: ownJson('text.json') },
      text: 'Hello! How can I help you today?',
      usage: { inputTokens: 19, outputTokens: 10 },
    },
    functionCall: {
      response: { kind: 'json', body: ownJson('tool-call.json') },
      call: {
        callId: 'call_Jx8pQ2mWv7LrT4nB9cYe1KdZ',
        name: 'get_weather',
        arguments: { city: 'Paris' },
      },
    },
    streamedText: {
      response: {
        kind: 'sse',
        body: chunksToSse(ownFixture('text.chunks.txt'), 'chat'),
        chunkBytes: 128,
      },
      text: 'Hello! How can I help you today?',
      usage: { inputTokens: 19, outputTokens: 10 },
    },
    streamedToolCall: {
      // Real recorded traffic, served verbatim.
      response: {
        kind: 'sse',
        body: readFixture(
          recordedFixturePath('chat-completions/test_run_stream_sync_streams_real_model.1.sse'),
        ),
      },
      call: {
        callId: 'call_ZR5UUuTt3pf61kjwAJIYdVMj',
        name: 'get_capital',
        arguments: { country: 'UK' },
      },
    },
    rateLimited: {
      response: {
        kind: 'json',
        status: 429,
        headers: { 'retry-after': '2' },
        body: ownJson('rate-limit-error.json'),
      },
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
    badRequest: {
      response: { kind: 'json', status: 400, body: ownJson('bad-request-error.json') },
    },
  },
);
