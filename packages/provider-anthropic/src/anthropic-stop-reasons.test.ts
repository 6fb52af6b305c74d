/**
 * Stop reasons: refusal, max_tokens (in text and inside a tool call), pause_turn continuation.
 */
import { extractRefusal, type MessageItem, ModelBehaviorError } from '@baton/kernel';
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
});
