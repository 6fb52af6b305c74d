/**
 * The streamed body as Baton reads it (`sseEvents` under `@anthropic-ai/sdk`'s stream rules, not the SDK's
 * iterator), with the real client against the fixture server on 127.0.0.1: the model stream
 * conformance suite (abort while events wait or the body stalls, Node `Readable` bodies, CR line
 * endings, a long-lived signal over many calls and runs in both modes).
 */
import Anthropic from '@anthropic-ai/sdk';
import { chunksToSse, readFixture, recordedFixturePath } from '@baton/testing';
import { describeModelStreamConformance } from '@baton/testing/vitest';
import { AnthropicMessagesModel } from './anthropic-messages-model.js';

describeModelStreamConformance(
  'AnthropicMessagesModel (@baton/provider-anthropic)',
  (server, fetch) =>
    new AnthropicMessagesModel('claude-sonnet-4-5', {
      client: new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0, fetch }),
    }),
  {
    stream: chunksToSse(
      readFixture(recordedFixturePath('anthropic-messages/anthropic-text.chunks.txt')),
      'anthropic',
    ),
    json: JSON.parse(readFixture(recordedFixturePath('anthropic-messages/anthropic-text.json'))),
  },
);
