/**
 * Reports from the peers' trackers about Anthropic conversion, driven through `run()` with the
 * real `@anthropic-ai/sdk` client against the fixture server, in both modes:
 * - a zero-argument tool streamed with no `input_json_delta` (vercel/ai, Kilo-Org/cloud#4753);
 * - a tool returning an image (tool results with images: the image goes inside `tool_result`);
 * - a handoff from an agent whose transcript holds another provider's reasoning, system
 *   messages mid-history and empty text (openai-agents-python#1005; vercel/ai#15248).
 */
import { Agent, type ContentPart, run, tool } from '@baton/kernel';
import { msg, reasoning, ScriptedModel, sseFromEvents } from '@baton/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './__fixtures__/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.server.close();
});
beforeEach(() => {
  h.server.requests.length = 0;
});

const usage = { input_tokens: 10, output_tokens: 5 };

function toolUseJson(name: string, id: string, input: Record<string, unknown>) {
  return {
    id: `msg_${id}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content: [{ type: 'tool_use', id, name, input }],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage,
  };
}

function textJson(text: string) {
  return {
    id: 'msg_text',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage,
  };
}

/** The SSE form of a message (content blocks started with their input, no deltas for tools). */
function toSse(message: ReturnType<typeof toolUseJson> | ReturnType<typeof textJson>): string {
  const events: unknown[] = [
    {
      type: 'message_start',
      message: {
        ...message,
        content: [],
        stop_reason: null,
        usage: { ...usage, output_tokens: 1 },
      },
    },
  ];
  message.content.forEach((block: any, index: number) => {
    if (block.type === 'text') {
      events.push({
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      });
      events.push({
        type: 'content_block_delta',
        index,
        delta: { type: 'text_delta', text: block.text },
      });
    } else {
      // A zero-argument tool: the input comes whole ({}) at the start, no input_json_delta.
      events.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push({
    type: 'message_delta',
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  events.push({ type: 'message_stop' });
  return sseFromEvents(events, 'anthropic');
}

function enqueue(
  stream: boolean,
  ...messages: (ReturnType<typeof toolUseJson> | ReturnType<typeof textJson>)[]
) {
  h.server.enqueue(
    ...messages.map((m) =>
      stream ? { kind: 'sse' as const, body: toSse(m) } : { kind: 'json' as const, body: m },
    ),
  );
}

async function drive(agent: Agent, input: string | any[], stream: boolean) {
  if (!stream) return run(agent, input);
  const result = await run(agent, input, { stream: true });
  for await (const _ of result);
  await result.completed;
  return result;
}

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

for (const stream of [false, true])
  describe(`Anthropic peer reports (${stream ? 'streamed' : 'non-streamed'})`, () => {
    it('a zero-argument tool call with no input deltas runs with {} and its result goes back as tool_result', async () => {
      const seen: unknown[] = [];
      const now = tool({
        name: 'current_time',
        description: 'The time.',
        execute: (args) => {
          seen.push(args);
          return '12:00';
        },
      });
      enqueue(stream, toolUseJson('current_time', 'toolu_1', {}), textJson('It is noon.'));
      const agent = new Agent({ name: 'Clock', tools: [now], model: h.model() });
      const result = await drive(agent, 'time?', stream);
      expect(result.finalOutput).toBe('It is noon.');
      expect(seen).toEqual([{}]);
      const second = h.server.requests[1].body;
      expect(second.messages[1]).toEqual({
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'current_time', input: {} }],
      });
      expect(second.messages[2].content[0]).toMatchObject({
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: '12:00',
      });
    });

    it('a tool returning text and an image sends both inside the tool_result (image as base64)', async () => {
      const shot = tool({
        name: 'screenshot',
        description: 'A screenshot.',
        execute: (): ContentPart[] => [
          { type: 'input_text', text: 'the page' },
          { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
        ],
      });
      enqueue(stream, toolUseJson('screenshot', 'toolu_2', {}), textJson('I see a pixel.'));
      const agent = new Agent({ name: 'Eyes', tools: [shot], model: h.model() });
      const result = await drive(agent, 'look', stream);
      expect(result.finalOutput).toBe('I see a pixel.');
      const user = h.server.requests[1].body.messages[2];
      expect(user.role).toBe('user');
      expect(user.content).toHaveLength(1);
      expect(user.content[0]).toMatchObject({
        type: 'tool_result',
        tool_use_id: 'toolu_2',
        content: [
          { type: 'text', text: 'the page' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        ],
      });
    });

    it("a handoff from another provider's agent: its reasoning is dropped, system text goes to `system`, empty text is not sent, roles alternate", async () => {
      enqueue(stream, textJson('Claude here.'));
      const claude = new Agent({ name: 'Claude', instructions: 'Be brief.', model: h.model() });
      const other = new Agent({
        name: 'Other',
        handoffs: [claude],
        model: new ScriptedModel([
          [
            reasoning('thinking elsewhere', { id: 'rs_1', encrypted_content: 'opaque' }),
            msg(''),
            {
              type: 'function_call',
              call_id: 'call_h',
              name: 'transfer_to_claude',
              arguments: '{}',
              status: 'completed',
            },
          ],
        ]),
      });
      const result = await drive(
        other,
        [
          { type: 'message', role: 'user', content: 'hi' },
          { type: 'message', role: 'system', content: 'Mid-history rule.' },
          { type: 'message', role: 'user', content: 'help' },
        ],
        stream,
      );
      expect(result.finalOutput).toBe('Claude here.');
      const body = h.server.requests[0].body;
      const system = Array.isArray(body.system)
        ? body.system.map((b: { text: string }) => b.text).join('\n')
        : body.system;
      expect(system).toContain('Be brief.');
      expect(system).toContain('Mid-history rule.');
      const types = body.messages.flatMap((m: any) =>
        (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content).map(
          (b: any) => b.type,
        ),
      );
      expect(types).not.toContain('thinking');
      expect(types).not.toContain('redacted_thinking');
      for (const m of body.messages)
        for (const b of typeof m.content === 'string' ? [] : m.content)
          if (b.type === 'text') expect(b.text).not.toBe('');
      for (let i = 1; i < body.messages.length; i++)
        expect(body.messages[i].role).not.toBe(body.messages[i - 1].role);
      expect(body.messages[0].role).toBe('user');
      const lastAssistant = body.messages.filter((m: any) => m.role === 'assistant').at(-1);
      expect(lastAssistant.content.map((b: any) => b.type)).toEqual(['tool_use']);
    });
  });
