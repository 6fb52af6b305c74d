/**
 * The streamed body as Baton reads it (`sseEvents` under `openai`'s stream rules, not the SDK's
 * iterator), with the real client against the fixture server on 127.0.0.1: the model stream
 * conformance suite (abort while events wait or the body stalls, Node `Readable` bodies, CR line
 * endings, a long-lived signal over many calls and runs in both modes).
 */

import { chunksToSse, readFixture, recordedFixturePath } from '@baton/testing';
import { describeModelStreamConformance } from '@baton/testing/vitest';
import OpenAI from 'openai';
import { ChatCompletionsModel } from './chat-completions-model.js';

describeModelStreamConformance(
  'ChatCompletionsModel (@baton/provider-chat)',
  (server, fetch) =>
    new ChatCompletionsModel({
      client: new OpenAI({ apiKey: 'k', baseURL: server.url, maxRetries: 0, fetch }),
      modelId: 'gpt-4.1-nano',
    }),
  {
    stream: chunksToSse(
      readFixture(recordedFixturePath('chat-completions/openai-text.chunks.txt')),
      'chat',
    ),
    json: JSON.parse(readFixture(recordedFixturePath('chat-completions/openai-text.json'))),
  },
);
