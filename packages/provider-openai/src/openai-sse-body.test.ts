/**
 * The streamed body as Baton reads it (`sseEvents` under `openai`'s stream rules, not the SDK's
 * iterator), with the real client against the fixture server on 127.0.0.1: the model stream
 * conformance suite (abort while events wait or the body stalls, Node `Readable` bodies, CR line
 * endings, a long-lived signal over many calls and runs in both modes).
 */

import { chunksToSse, readFixture, recordedFixturePath } from '@baton/testing';
import { describeModelStreamConformance } from '@baton/testing/vitest';
import OpenAI from 'openai';
import { OpenAIResponsesModel } from './openai-responses-model.js';

describeModelStreamConformance(
  'OpenAIResponsesModel (@baton/provider-openai)',
  (server, fetch) =>
    new OpenAIResponsesModel('gpt-4o', {
      client: new OpenAI({ apiKey: 'k', baseURL: server.url, maxRetries: 0, fetch }),
    }),
  {
    stream: chunksToSse(
      readFixture(recordedFixturePath('openai-responses/openai-pdf-input-file.1.chunks.txt')),
      'responses',
    ),
    json: JSON.parse(
      readFixture(recordedFixturePath('openai-responses/openai-pdf-input-file.1.json')),
    ),
  },
);
