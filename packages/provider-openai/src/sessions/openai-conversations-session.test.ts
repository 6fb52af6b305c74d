/**
 * `OpenAIConversationsSession` with the real `openai` client against a stateful fake of the
 * Conversations API (`openAIConversationsFake` on the fixture server): the session conformance
 * suite (up to the server's canonical form of items), lazy creation under concurrent first
 * writes (also when the first creation fails), paging, errors, and a run that uses it.
 */
import { Agent, type Item, run, SessionError } from '@baton/kernel';
import {
  type FixtureServer,
  type OpenAIConversationsFake,
  openAIConversationsFake,
  startFixtureServer,
} from '@baton/testing';
import { describeSessionConformance } from '@baton/testing/vitest';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messageItem, wireResponse } from '../__fixtures__/platform-wire.js';
import { OpenAIResponsesModel } from '../openai-responses-model.js';
import { OpenAIConversationsSession } from './openai-conversations-session.js';

/** What the Conversations API changes in a stored item: ids, status, string content, provider_data. */
function canonical(item: Item): unknown {
  const { id: _id, status: _status, provider_data: _pd, ...rest } = item as Record<string, any>;
  if (rest.type !== 'message') return rest;
  const parts =
    typeof rest.content === 'string'
      ? [
          rest.role === 'assistant'
            ? { type: 'output_text', text: rest.content }
            : { type: 'input_text', text: rest.content },
        ]
      : rest.content;
  return {
    ...rest,
    content: parts.map((p: Record<string, unknown>) =>
      p.type === 'output_text' ? { annotations: [], ...p } : p,
    ),
  };
}

let shared: FixtureServer;
let sharedFake: OpenAIConversationsFake;
beforeAll(async () => {
  sharedFake = openAIConversationsFake();
  shared = await startFixtureServer({ route: sharedFake.route });
});
afterAll(async () => {
  await shared.close();
});
const client = (server: FixtureServer) =>
  new OpenAI({ apiKey: 'k', baseURL: `${server.url}/v1`, maxRetries: 0 });

describeSessionConformance(
  'OpenAIConversationsSession (Conversations API fake)',
  (sessionId) => new OpenAIConversationsSession({ client: client(shared), sessionId }),
  {
    normalizeItem: canonical,
  },
);

describe('OpenAIConversationsSession', () => {
  let server: FixtureServer;
  let fake: OpenAIConversationsFake;
  beforeEach(async () => {
    fake = openAIConversationsFake();
    server = await startFixtureServer({ route: fake.route });
  });
  afterEach(async () => {
    await server.close();
  });

  const user = (text: string): Item => ({ type: 'message', role: 'user', content: text });

  it('creates no conversation to read, and exactly one under concurrent first writes', async () => {
    const session = new OpenAIConversationsSession({
      client: client(server),
      sessionId: 'desk-1',
      metadata: { team: 'support' },
    });
    expect(session.conversationId).toBeUndefined();
    expect(await session.getItems()).toEqual([]);
    expect(await session.popItem()).toBeUndefined();
    expect(fake.created).toBe(0);
    await Promise.all(Array.from({ length: 6 }, (_, i) => session.addItems([user(`w${i}`)])));
    expect(fake.created).toBe(1);
    const id = session.conversationId!;
    expect(id).toMatch(/^conv_/);
    expect(fake.conversations.get(id)!.metadata).toEqual({
      baton_session_id: 'desk-1',
      team: 'support',
    });
    expect((await session.getItems()).map((i) => (i as { content: string }).content)).toEqual([
      'w0',
      'w1',
      'w2',
      'w3',
      'w4',
      'w5',
    ]);
  });

  it('a failed creation is retried by the next writer, and history is never split', async () => {
    let failures = 1;
    const flaky = await startFixtureServer({
      route: (req) => {
        if (req.method === 'POST' && req.path === '/v1/conversations' && failures-- > 0)
          return {
            kind: 'json',
            status: 500,
            body: { error: { message: 'boom', type: 'server_error' } },
          };
        return fake.route(req);
      },
    });
    try {
      const session = new OpenAIConversationsSession({ client: client(flaky) });
      const results = await Promise.allSettled([
        session.addItems([user('a')]),
        session.addItems([user('b')]),
      ]);
      expect(results[0].status).toBe('rejected');
      expect((results[0] as PromiseRejectedResult).reason).toBeInstanceOf(SessionError);
      expect((results[0] as PromiseRejectedResult).reason.message).toMatch(
        /create on a new conversation.*HTTP 500/,
      );
      expect(results[1].status).toBe('fulfilled');
      expect(fake.created).toBe(1);
      expect(await session.getItems()).toMatchObject([{ content: 'b' }]);
    } finally {
      await flaky.close();
    }
  });

  it('pages getItems(limit) over several pages, newest limit oldest first; writes more than 20 items in order', async () => {
    const session = new OpenAIConversationsSession({ client: client(server) });
    const items = Array.from({ length: 230 }, (_, i) => user(`m${i}`));
    await session.addItems(items);
    const posts = server.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/items'));
    expect(posts.map((r) => r.body.items.length)).toEqual([
      20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 10,
    ]);
    const texts = (xs: Item[]) => xs.map((i) => (i as { content: string }).content);
    expect(texts(await session.getItems(150))).toEqual(
      items.slice(80).map((i) => (i as { content: string }).content),
    );
    expect(texts(await session.getItems())).toHaveLength(230);
    const lists = server.requests.filter((r) => r.method === 'GET' && r.path.includes('/items'));
    expect(lists.some((r) => r.path.includes('after='))).toBe(true);
  });

  it('sends items the API takes: no provider_data, no created_by, no foreign reasoning, ids left to the server', async () => {
    const session = new OpenAIConversationsSession({ client: client(server) });
    await session.addItems([
      { type: 'message', role: 'user', content: 'hi', provider_data: { x: 1 } } as Item,
      {
        type: 'reasoning',
        id: 'thinking_1',
        summary: [],
        provider_data: { anthropic: { signature: 's' } },
      },
      { type: 'function_call', id: 'fc_9', call_id: 'c1', name: 'f', arguments: '{}' },
      {
        type: 'shell_call_output',
        call_id: 's1',
        output: [
          { stdout: 'x', stderr: '', outcome: { type: 'exit', exit_code: 0 }, created_by: 'r' },
        ],
      } as Item,
    ]);
    const sent = server.requests.find((r) => r.path.endsWith('/items'))!.body.items;
    expect(sent).toEqual([
      { type: 'message', role: 'user', content: 'hi' },
      { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
      {
        type: 'shell_call_output',
        call_id: 's1',
        output: [{ stdout: 'x', stderr: '', outcome: { type: 'exit', exit_code: 0 } }],
      },
    ]);
  });

  it('clearSession deletes the conversation; the next write creates a new one', async () => {
    const session = new OpenAIConversationsSession({ client: client(server), sessionId: 's' });
    await session.addItems([user('one')]);
    const first = session.conversationId!;
    await session.clearSession();
    expect(fake.conversations.has(first)).toBe(false);
    expect(await session.getItems()).toEqual([]);
    await session.addItems([user('two')]);
    expect(session.conversationId).not.toBe(first);
    expect(session.sessionId).toBe('s');
  });

  it('an unknown conversation is a SessionError naming it and what to do', async () => {
    const session = new OpenAIConversationsSession({
      client: client(server),
      conversationId: 'conv_missing',
    });
    expect(session.sessionId).toBe('conv_missing');
    const error = await session.getItems().catch((e) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect(error.message).toContain('conv_missing');
    expect(error.message).toMatch(/HTTP 404.*does not exist/);
  });

  for (const stream of [false, true]) {
    it(`a run reads the history from the conversation and stores the new turn in it (stream: ${stream})`, async () => {
      const session = new OpenAIConversationsSession({ client: client(server) });
      await session.addItems([
        user('My name is Ada.'),
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hi Ada.' }] },
      ]);
      server.enqueue(wireResponse([messageItem('You are Ada.')], stream));
      const agent = new Agent({
        name: 'a',
        model: new OpenAIResponsesModel('gpt-5.4', { client: client(server) }),
      });
      const result = stream
        ? await run(agent, 'Who am I?', { session, stream: true })
        : await run(agent, 'Who am I?', { session });
      if (stream) for await (const _ of result as AsyncIterable<unknown>);
      expect(result.finalOutput).toBe('You are Ada.');
      const modelCall = server.requests.find((r) => r.path === '/v1/responses')!;
      expect(modelCall.body.input.map((i: { content: unknown }) => i.content)).toEqual([
        'My name is Ada.',
        [{ type: 'output_text', text: 'Hi Ada.', annotations: [] }],
        'Who am I?',
      ]);
      const stored = await session.getItems();
      expect(stored.map((i) => i.type)).toEqual(['message', 'message', 'message', 'message']);
      expect(stored.at(-1)).toMatchObject({
        role: 'assistant',
        content: [{ type: 'output_text', text: 'You are Ada.' }],
      });
    });
  }
});
