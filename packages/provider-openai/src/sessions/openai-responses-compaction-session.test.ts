/**
 * `OpenAIResponsesCompactionSession` with the real `openai` client: runs against the fixture
 * server, `POST /v1/responses/compact` answered with compacted responses written from the API
 * reference (`object: 'response.compaction'`, output = the user messages then one `compaction`
 * item). Covers the threshold, deferral while a call waits for approval, replacement of the
 * stored history (items appended meanwhile kept), failures, and the next request's input.
 */
import { Agent, type Item, MemorySession, run, tool, UserError } from '@baton/kernel';
import {
  type FixtureResponse,
  type FixtureServer,
  type RecordedRequest,
  startFixtureServer,
} from '@baton/testing';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  functionCallItem,
  messageItem,
  wireId,
  wireResponse,
} from '../__fixtures__/platform-wire.js';
import { OpenAIResponsesModel } from '../openai-responses-model.js';
import { OpenAIConversationsSession } from './openai-conversations-session.js';
import { OpenAIResponsesCompactionSession } from './openai-responses-compaction-session.js';

let server: FixtureServer;
let compactions: FixtureResponse[];
let compactRequests: RecordedRequest[];
beforeEach(async () => {
  compactions = [];
  compactRequests = [];
  server = await startFixtureServer({
    route: (req) => {
      if (req.path !== '/v1/responses/compact') return undefined;
      compactRequests.push(req);
      return (
        compactions.shift() ?? {
          kind: 'json',
          status: 500,
          body: { error: { message: 'no compaction queued', type: 'server_error' } },
        }
      );
    },
  });
});
afterEach(async () => {
  await server.close();
});

const client = () => new OpenAI({ apiKey: 'k', baseURL: `${server.url}/v1`, maxRetries: 0 });
const user = (text: string): Item => ({ type: 'message', role: 'user', content: text });
const assistant = (text: string): Item => ({
  type: 'message',
  role: 'assistant',
  content: [{ type: 'output_text', text }],
});

/** A compacted response: the user messages kept, then the opaque compaction item. */
function compacted(userTexts: string[]): FixtureResponse {
  return {
    kind: 'json',
    body: {
      id: wireId('resp'),
      object: 'response.compaction',
      created_at: 1767225600,
      output: [
        ...userTexts.map((text) => ({
          id: wireId('msg'),
          type: 'message',
          status: 'completed',
          role: 'user',
          content: [{ type: 'input_text', text }],
        })),
        { id: wireId('cmp'), type: 'compaction', encrypted_content: `gAAAA-${userTexts.length}` },
      ],
      usage: {
        input_tokens: 900,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 120,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 1020,
      },
    },
  };
}

describe('OpenAIResponsesCompactionSession', () => {
  it('compacts once the stored history has `threshold` candidate items and replaces it with the result', async () => {
    const inner = new MemorySession({ sessionId: 'c1' });
    const session = new OpenAIResponsesCompactionSession({
      session: inner,
      client: client(),
      model: 'gpt-5.4',
      threshold: 3,
    });
    await session.addItems([user('q1'), assistant('a1'), assistant('a1b')]);
    expect(compactRequests).toHaveLength(0);
    compactions.push(compacted(['q1', 'q2']));
    await session.addItems([user('q2'), assistant('a2')]);
    expect(compactRequests).toHaveLength(1);
    expect(compactRequests[0].body.model).toBe('gpt-5.4');
    expect(compactRequests[0].body.input.map((i: { role?: string }) => i.role)).toEqual([
      'user',
      'assistant',
      'assistant',
      'user',
      'assistant',
    ]);
    const stored = await inner.getItems();
    expect(stored.map((i) => i.type)).toEqual(['message', 'message', 'compaction']);
    expect(stored[2]).toMatchObject({ type: 'compaction', encrypted_content: 'gAAAA-2' });
    // The compaction item and user messages are not candidates: no new compaction yet.
    await session.addItems([assistant('a3')]);
    expect(compactRequests).toHaveLength(1);
  });

  it('refuses a Conversations session, a Session v2 without history rewrite, and a bad threshold', () => {
    const v2 = Object.assign(new MemorySession(), {
      specificationVersion: 'v2' as const,
      historyRewriteVersion: undefined,
      replaceOldestItems: undefined,
    });
    expect(
      () => new OpenAIResponsesCompactionSession({ session: v2 as never, client: client() }),
    ).toThrow(/no history rewrite v1/);
    const conv = new OpenAIConversationsSession({ client: client() });
    expect(() => new OpenAIResponsesCompactionSession({ session: conv, client: client() })).toThrow(
      UserError,
    );
    expect(
      () =>
        new OpenAIResponsesCompactionSession({
          session: new MemorySession(),
          client: client(),
          threshold: 0,
        }),
    ).toThrow(/threshold/);
  });

  it('a failed compaction leaves the history as it was, reports it, and the next turn tries again', async () => {
    const errors: unknown[] = [];
    const inner = new MemorySession({ sessionId: 'c2' });
    const session = new OpenAIResponsesCompactionSession({
      session: inner,
      client: client(),
      threshold: 1,
      onError: (e) => errors.push(e),
    });
    await session.addItems([user('q'), assistant('a')]);
    expect(errors).toHaveLength(1);
    expect(String((errors[0] as Error).message)).toContain('no compaction queued');
    expect(await inner.getItems()).toEqual([user('q'), assistant('a')]);
    compactions.push(compacted(['q']));
    await session.addItems([assistant('b')]);
    expect((await inner.getItems()).map((i) => i.type)).toEqual(['message', 'compaction']);
  });

  for (const stream of [false, true]) {
    it(`defers while a call waits for approval, compacts after the tool output, and the next request starts at the compaction item (stream: ${stream})`, async () => {
      const inner = new MemorySession({ sessionId: 'c3' });
      const session = new OpenAIResponsesCompactionSession({
        session: inner,
        client: client(),
        threshold: 2,
      });
      const refund = tool({
        name: 'refund',
        description: 'Refund.',
        parameters: z.object({ order: z.string() }),
        needsApproval: true,
        execute: () => 'refunded',
      });
      const agent = new Agent({
        name: 'desk',
        tools: [refund],
        model: new OpenAIResponsesModel('gpt-5.4', { client: client() }),
      });
      server.enqueue(
        wireResponse(
          [messageItem('Let me check.'), functionCallItem('refund', { order: 'o1' }, 'call_r1')],
          stream,
        ),
        wireResponse([messageItem('Refunded o1.')], stream),
        wireResponse([messageItem('Anything else?')], stream),
      );
      const go = async (input: any) => {
        if (!stream) return run(agent, input, { session });
        const r = await run(agent, input, { session, stream: true });
        for await (const _ of r);
        await r.completed;
        return r;
      };
      const first = await go('Refund o1.');
      expect(first.interruptions).toHaveLength(1);
      // Two candidates stored (message + function call), but the call waits: no compaction.
      expect(compactRequests).toHaveLength(0);
      first.state.approve(first.interruptions[0]);
      compactions.push(compacted(['Refund o1.']));
      const second = await go(first.state);
      expect(second.finalOutput).toBe('Refunded o1.');
      expect(compactRequests).toHaveLength(1);
      const sent = compactRequests[0].body.input.map((i: { type: string }) => i.type);
      // Compacted as soon as the tool output was stored (the final answer came after it).
      expect(sent).toEqual(['message', 'message', 'function_call', 'function_call_output']);
      await go('Thanks.');
      const input = server.requests.filter((r) => r.path === '/v1/responses').at(-1)!.body.input;
      expect(input.map((i: { type: string; role?: string }) => i.role ?? i.type)).toEqual([
        'compaction',
        'assistant',
        'user',
      ]);
      expect(input[2]).toMatchObject({ role: 'user', content: 'Thanks.' });
      expect((await inner.getItems()).map((i) => (i.type === 'message' ? i.role : i.type))).toEqual(
        ['user', 'compaction', 'assistant', 'user', 'assistant'],
      );
    });
  }

  it('keeps items appended while the compaction ran after its result (background)', async () => {
    const inner = new MemorySession({ sessionId: 'c4' });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slowClient = new OpenAI({
      apiKey: 'k',
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
      fetch: async (url, init) => {
        if (String(url).endsWith('/responses/compact')) await gate;
        return fetch(url, init);
      },
    });
    try {
      const session = new OpenAIResponsesCompactionSession({
        session: inner,
        client: slowClient,
        threshold: 1,
        background: true,
      });
      compactions.push(compacted(['q']));
      await session.addItems([user('q'), assistant('a')]);
      await inner.addItems([user('late')]);
      release();
      await session.idle();
      expect((await inner.getItems()).map((i) => (i.type === 'message' ? i.role : i.type))).toEqual(
        ['user', 'compaction', 'user'],
      );
    } finally {
      release();
    }
  });
});
