/**
 * The offline "OpenAI" of this example: a fixture server on 127.0.0.1 with a stateful
 * Conversations API fake, a queue of Responses answers (bodies as the API reference writes
 * them) and a queue for `POST /v1/responses/compact`.
 */
import {
  type FixtureResponse,
  type FixtureServer,
  type OpenAIConversationsFake,
  openAIConversationsFake,
  type RecordedRequest,
  startFixtureServer,
} from '@baton/testing';

let n = 0;
export const id = (prefix: string) => `${prefix}_${(++n).toString(16).padStart(40, '0')}`;

export interface OfflineOpenAI {
  server: FixtureServer;
  conversations: OpenAIConversationsFake;
  /** Queues Responses answers with these output items. */
  answer(...outputs: Record<string, unknown>[][]): void;
  /** Queues a compacted response keeping these user messages. */
  compacted(userTexts: string[]): void;
  /** The `/v1/responses` requests so far. */
  responses(): RecordedRequest[];
  baseURL: string;
}

export async function offlineOpenAI(): Promise<OfflineOpenAI> {
  const conversations = openAIConversationsFake();
  const compactions: FixtureResponse[] = [];
  const server = await startFixtureServer({
    route: (req) =>
      conversations.route(req) ??
      (req.path === '/v1/responses/compact' ? compactions.shift() : undefined),
  });
  return {
    server,
    conversations,
    baseURL: `${server.url}/v1`,
    answer: (...outputs) => {
      for (const output of outputs)
        server.enqueue({
          kind: 'json',
          body: {
            id: id('resp'),
            object: 'response',
            status: 'completed',
            model: 'gpt-5.4',
            output,
            usage: { input_tokens: 100, output_tokens: 20, total_tokens: 120 },
          },
        });
    },
    compacted: (userTexts) => {
      compactions.push({
        kind: 'json',
        body: {
          id: id('resp'),
          object: 'response.compaction',
          created_at: 1767225600,
          output: [
            ...userTexts.map((text) => ({
              id: id('msg'),
              type: 'message',
              role: 'user',
              status: 'completed',
              content: [{ type: 'input_text', text }],
            })),
            { id: id('cmp'), type: 'compaction', encrypted_content: 'gAAAA-compacted' },
          ],
          usage: { input_tokens: 500, output_tokens: 60, total_tokens: 560 },
        },
      });
    },
    responses: () => server.requests.filter((r) => r.path === '/v1/responses'),
  };
}

export const message = (text: string) => ({
  id: id('msg'),
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text, annotations: [] }],
});
