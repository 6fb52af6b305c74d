import type { ModelStreamEvent } from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import { convertChatStream } from './chat-stream.js';

/** The converter takes already-parsed chunks (the `openai` client's stream); here they are given directly. */
async function run(chunks: unknown[]): Promise<{ events: ModelStreamEvent[]; error: unknown }> {
  async function* source() {
    yield* chunks;
  }
  const events: ModelStreamEvent[] = [];
  try {
    for await (const e of convertChatStream(source(), { providerId: 'chat' })) events.push(e);
  } catch (error) {
    return { events, error };
  }
  return { events, error: undefined };
}

const chunk = (
  delta: unknown,
  finish: string | null = null,
  extra: Record<string, unknown> = {},
) => ({
  id: 'c-1',
  object: 'chat.completion.chunk',
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...extra,
});

describe('convertChatStream', () => {
  it('emits response_started, raw per chunk, deltas, output_item_done per item and one final response_done', async () => {
    const { events } = await run([
      chunk({ role: 'assistant', content: 'Hi' }),
      chunk({ content: ' there' }),
      chunk({}, 'stop'),
    ]);
    expect(events.map((e) => e.type)).toEqual([
      'response_started',
      'raw',
      'output_item_added',
      'text_delta',
      'raw',
      'text_delta',
      'raw',
      'output_item_done',
      'response_done',
    ]);
    expect(events.filter((e) => e.type === 'raw').every((e: any) => e.providerId === 'chat')).toBe(
      true,
    );
  });

  it('gives tool calls without an id a deterministic call_id from the response id and index', async () => {
    const { events } = await run([
      chunk({ tool_calls: [{ index: 0, function: { name: 'now', arguments: '' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const done = events.at(-1) as any;
    expect(done.response.output).toEqual([
      {
        type: 'function_call',
        call_id: 'c-1_call_0',
        name: 'now',
        arguments: '{}',
        status: 'completed',
      },
    ]);
  });

  it('ignores choices other than index 0 (n > 1)', async () => {
    const { events } = await run([
      {
        id: 'c',
        choices: [
          { index: 1, delta: { content: 'other' }, finish_reason: null },
          { index: 0, delta: { content: 'main' }, finish_reason: null },
        ],
      },
      chunk({}, 'stop'),
    ]);
    expect((events.at(-1) as any).response.output[0].content[0].text).toBe('main');
  });

  it('raises ModelBehaviorError when the token limit cuts a streamed tool call', async () => {
    const { events, error } = await run([
      chunk({
        tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: '{"a":' } }],
      }),
      chunk({}, 'length'),
    ]);
    expect(error).toMatchObject({ kind: 'ModelBehaviorError' });
    expect(events.some((e) => e.type === 'response_done')).toBe(false);
  });

  it('takes usage from x_groq when there is no top-level usage', async () => {
    const { events } = await run([
      chunk({ content: 'x' }),
      chunk({}, 'stop', {
        x_groq: { usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } },
      }),
    ]);
    expect((events.at(-1) as any).response.usage).toMatchObject({
      inputTokens: 7,
      outputTokens: 2,
      totalTokens: 9,
    });
  });

  it('orders the output by when each item started and pairs every delta with its call, whatever the interleaving', async () => {
    const { events } = await run([
      chunk({ reasoning_content: 'think' }),
      chunk({ tool_calls: [{ index: 1, id: 'b', function: { name: 'g', arguments: '{"y"' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '' } }] }),
      chunk({ content: 'text after the calls' }),
      chunk({
        tool_calls: [
          { index: 0, function: { arguments: '{"x":1}' } },
          { index: 1, function: { arguments: ':2}' } },
        ],
      }),
      chunk({ tool_calls: [{ index: 1 }] }), // carries nothing: no event
      chunk({}, 'tool_calls'),
    ]);
    const added = events.filter((e) => e.type === 'output_item_added') as any[];
    expect(added.map((e) => [e.outputIndex, e.item.type, e.item.call_id])).toEqual([
      [0, 'reasoning', undefined],
      [1, 'function_call', 'b'],
      [2, 'function_call', 'a'],
      [3, 'message', undefined],
    ]);
    const deltas = events.filter((e) => e.type === 'function_call_arguments_delta') as any[];
    expect(deltas.map((e) => [e.callId, e.outputIndex, e.delta])).toEqual([
      ['b', 1, '{"y"'],
      ['a', 2, '{"x":1}'],
      ['b', 1, ':2}'],
    ]);
    const done = events.filter((e) => e.type === 'output_item_done') as any[];
    expect(done.map((e) => e.outputIndex)).toEqual([0, 1, 2, 3]);
    const output = (events.at(-1) as any).response.output;
    expect(done.map((e) => e.item)).toEqual(output);
    expect(output.map((i: any) => [i.type, i.call_id, i.arguments])).toEqual([
      ['reasoning', undefined, undefined],
      ['function_call', 'b', '{"y":2}'],
      ['function_call', 'a', '{"x":1}'],
      ['message', undefined, undefined],
    ]);
  });

  it('orders the output as the items started: a tool call before the text comes first', async () => {
    const { events } = await run([
      chunk({
        tool_calls: [{ index: 0, id: 'call_1', function: { name: 'now', arguments: '{}' } }],
      }),
      chunk({ content: 'Checking.' }),
      chunk({ reasoning_content: 'late thought' }),
      chunk({}, 'tool_calls'),
    ]);
    const done = events.at(-1) as any;
    expect(done.response.output.map((i: any) => i.type)).toEqual([
      'function_call',
      'message',
      'reasoning',
    ]);
    expect(
      events.filter((e) => e.type === 'output_item_done').map((e: any) => e.outputIndex),
    ).toEqual([0, 1, 2]);
  });
});
