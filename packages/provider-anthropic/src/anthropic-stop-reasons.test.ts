/**
 * Stop reasons: refusal, max_tokens (in text and inside a tool call), pause_turn continuation.
 */
import { extractRefusal, type MessageItem, ModelBehaviorError } from '@baton/kernel';
import { sseFromEvents } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import {
  collect,
  lastBody,
  ownFixture,
  ownJson,
  request,
  useHarness,
} from './__fixtures__/harness.js';

const h = useHarness();

describe('Anthropic stop reasons', () => {
  it('refusal becomes an assistant message with a refusal part', async () => {
    h.server.enqueue({ kind: 'json', body: ownFixture('refusal.json') });
    const res = await h.model().getResponse(request('…'));
    expect(res.output).toHaveLength(1);
    expect(extractRefusal(res.output[0] as MessageItem)).toBe(
      'Claude declined to respond (stop_reason "refusal", category "cyber").',
    );
  });

  it('max_tokens inside a tool call is a ModelBehaviorError naming the tool (JSON and stream)', async () => {
    const model = h.model();
    h.server.enqueue(
      { kind: 'json', body: ownFixture('max-tokens-tool-use.json') },
      { kind: 'sse', body: ownFixture('max-tokens-tool-use.sse') },
    );
    const e1 = await model.getResponse(request('write notes')).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(ModelBehaviorError);
    expect((e1 as ModelBehaviorError).toolName).toBe('write_file');
    expect((e1 as Error).message).toContain('max_tokens in the middle of tool call "write_file"');
    const e2 = await collect(model.getStreamedResponse(request('write notes'))).catch(
      (e: unknown) => e,
    );
    expect(e2).toBeInstanceOf(ModelBehaviorError);
    expect((e2 as ModelBehaviorError).rawText).toBe('{"path": "notes.md", "content": "# No');
  });

  it('max_tokens in text marks the message incomplete', async () => {
    h.server.enqueue({ kind: 'json', body: ownFixture('max-tokens-text.json') });
    const res = await h
      .model()
      .getResponse(request('Tell a story', { modelSettings: { maxOutputTokens: 8 } }));
    expect(lastBody(h).max_tokens).toBe(8);
    expect(res.output).toEqual([
      {
        type: 'message',
        role: 'assistant',
        status: 'incomplete',
        content: [{ type: 'output_text', text: 'Once upon a time, in a' }],
      },
    ]);
  });

  it('pause_turn is continued by sending the paused content back; outputs and usage are merged', async () => {
    const webSearch = {
      type: 'hosted_tool' as const,
      name: 'web_search',
      providerId: 'anthropic',
      providerData: { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
    };
    h.server.enqueue(
      { kind: 'json', body: ownFixture('pause-turn.1.json') },
      { kind: 'json', body: ownFixture('pause-turn.2.json') },
    );
    const res = await h.model().getResponse(request('Relay world record?', { tools: [webSearch] }));
    expect(h.server.requests).toHaveLength(2);
    expect(h.server.requests[0].body.tools).toEqual([
      { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
    ]);
    const paused = ownJson('pause-turn.1.json').content;
    expect(h.server.requests[1].body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Relay world record?' }] },
      { role: 'assistant', content: paused },
    ]);
    expect(res.output.map((i) => i.type)).toEqual([
      'hosted_tool_call',
      'hosted_tool_call',
      'message',
    ]);
    expect(res.usage).toMatchObject({ requests: 2, inputTokens: 2300, outputTokens: 55 });
    expect(res.responseId).toBe('msg_fx_pause_02');
  });

  it('pause_turn is continued in a stream too: a second request, one response_done with both outputs', async () => {
    const webSearch = {
      type: 'hosted_tool' as const,
      name: 'web_search',
      providerId: 'anthropic',
      providerData: { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
    };
    /** A recorded message as the stream that carries it: each block whole at its start. */
    const asStream = (message: Record<string, any>) =>
      sseFromEvents(
        [
          {
            type: 'message_start',
            message: {
              ...message,
              content: [],
              stop_reason: null,
              usage: { input_tokens: message.usage.input_tokens, output_tokens: 1 },
            },
          },
          ...message.content.flatMap((block: Record<string, unknown>, index: number) => [
            { type: 'content_block_start', index, content_block: block },
            { type: 'content_block_stop', index },
          ]),
          {
            type: 'message_delta',
            delta: { stop_reason: message.stop_reason, stop_sequence: null },
            usage: { output_tokens: message.usage.output_tokens },
          },
          { type: 'message_stop' },
        ],
        'anthropic',
      );
    h.server.enqueue(
      { kind: 'sse', body: asStream(ownJson('pause-turn.1.json')) },
      { kind: 'sse', body: asStream(ownJson('pause-turn.2.json')) },
    );
    const events = await collect(
      h.model().getStreamedResponse(request('Relay world record?', { tools: [webSearch] })),
    );
    expect(h.server.requests).toHaveLength(2);
    expect(h.server.requests[1].body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Relay world record?' }] },
      { role: 'assistant', content: ownJson('pause-turn.1.json').content },
    ]);
    const done = events.filter((e) => e.type === 'response_done');
    expect(done).toHaveLength(1);
    expect(events.at(-1)).toBe(done[0]);
    const res = (done[0] as Extract<(typeof events)[number], { type: 'response_done' }>).response;
    expect(res.output.map((i) => i.type)).toEqual([
      'hosted_tool_call',
      'hosted_tool_call',
      'message',
    ]);
    expect(res.usage).toMatchObject({ requests: 2, inputTokens: 2300, outputTokens: 55 });
    expect(res.responseId).toBe('msg_fx_pause_02');
    // every event of both streams: 7 (start, 2 × block start/stop, delta, stop) + 5
    expect(events.filter((e) => e.type === 'raw')).toHaveLength(7 + 5);
  });
});
