/**
 * The kernel's `run()` loop driving AnthropicMessagesModel (real SDK, fixtures on 127.0.0.1),
 * and a handoff from an agent on another provider (ScriptedModel) to an agent on Anthropic.
 */
import { Agent, run, tool } from '@baton/kernel';
import { chunksToSse, fc, msg, reasoning, ScriptedModel } from '@baton/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Harness, ownFixture, recorded, startHarness } from './__fixtures__/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.server.close();
});
beforeEach(() => {
  h.server.requests.length = 0;
  expect(h.server.pending()).toBe(0);
});

function weatherTool(seen: string[]) {
  return tool({
    name: 'get_weather',
    description: 'Current weather of a city.',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => {
      seen.push(city);
      return city === 'Paris' ? 'sunny, 24°C' : 'rainy, 15°C';
    },
  });
}

/** Every tool_use of an assistant message is answered by a tool_result in the next user message. */
function expectValidTranscript(
  messages: { role: string; content: { type: string; id?: string; tool_use_id?: string }[] }[],
) {
  expect(messages[0].role).toBe('user');
  for (let i = 0; i < messages.length; i++) {
    if (i > 0) expect(messages[i].role).not.toBe(messages[i - 1].role);
    const uses = messages[i].content.filter((b) => b.type === 'tool_use').map((b) => b.id);
    if (uses.length === 0) continue;
    const results = messages[i + 1].content
      .filter((b) => b.type === 'tool_result')
      .map((b) => b.tool_use_id);
    expect(results).toEqual(uses);
  }
  const all = messages.flatMap((m) => m.content.map((b) => b.type));
  expect(all).not.toContain('thinking');
  expect(all).not.toContain('redacted_thinking');
}

describe('run() with AnthropicMessagesModel', () => {
  it('runs a full tool loop: parallel calls executed, both results in one user message, final answer', async () => {
    const seen: string[] = [];
    h.server.enqueue(
      { kind: 'json', body: ownFixture('parallel-tool-use.1.json') },
      { kind: 'json', body: ownFixture('parallel-tool-use.2.json') },
    );
    const agent = new Agent({
      name: 'Weather',
      instructions: 'Answer weather questions.',
      tools: [weatherTool(seen)],
      model: h.model(),
    });
    const result = await run(agent, 'Weather in Paris and London?');
    expect(result.finalOutput).toBe('Paris is sunny at 24°C; London is rainy at 15°C.');
    expect(seen.sort()).toEqual(['London', 'Paris']);
    expect(result.newItems.map((i) => i.type)).toEqual([
      'message_output_item',
      'tool_call_item',
      'tool_call_item',
      'tool_call_output_item',
      'tool_call_output_item',
      'message_output_item',
    ]);
    expect(result.usage).toMatchObject({ requests: 2, inputTokens: 900, outputTokens: 118 });
    const second = h.server.requests[1].body;
    expect(second.system).toBe('Answer weather questions.');
    expect(second.tools[0]).toMatchObject({
      name: 'get_weather',
      input_schema: { type: 'object', required: ['city'] },
    });
    expect(second.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_fx_paris', content: 'sunny, 24°C' },
        { type: 'tool_result', tool_use_id: 'toolu_fx_london', content: 'rainy, 15°C' },
      ],
    });
    expectValidTranscript(second.messages);
  });

  it('streams a tool loop, retrying a 529 first (the failed attempt is not a request in usage)', async () => {
    const seen: string[] = [];
    const clock = tool({ name: 'get_time', description: 'Time.', execute: () => '12:00' });
    h.server.enqueue(
      {
        kind: 'json',
        status: 529,
        headers: { 'retry-after-ms': '20' },
        body: ownFixture('overloaded-529.json'),
      },
      { kind: 'sse', body: ownFixture('tool-use-stream.sse'), chunkBytes: 16 },
      { kind: 'sse', body: chunksToSse(recorded('anthropic-text.chunks.txt'), 'anthropic') },
    );
    const agent = new Agent({
      name: 'Weather',
      tools: [weatherTool(seen), clock],
      model: h.model(),
    });
    const streamed = await run(agent, 'Weather in Zürich and the time?', { stream: true });
    let text = '';
    for await (const t of streamed.toTextStream()) text += t;
    await streamed.completed;
    expect(text).toBe(
      "Let me look up Zürich's weather.Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
    );
    expect(seen).toEqual(['Zürich']);
    expect(h.server.requests).toHaveLength(3);
    expect(streamed.usage.requests).toBe(2);
    expect(h.server.requests[2].body.messages[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_fx_stream_1', content: 'rainy, 15°C' },
      { type: 'tool_result', tool_use_id: 'toolu_fx_stream_2', content: '12:00' },
    ]);
  });

  it('structured output: outputType becomes output_config.format and the JSON message the final output', async () => {
    h.server.enqueue({ kind: 'json', body: ownFixture('structured-output.json') });
    const agent = new Agent({
      name: 'Cities',
      model: h.model(),
      outputType: z.object({ city: z.string(), population_millions: z.number() }),
    });
    const result = await run(agent, 'Biggest French city?');
    expect(result.finalOutput).toEqual({ city: 'Paris', population_millions: 2.1 });
    expect(h.server.requests[0].body.output_config.format).toMatchObject({
      type: 'json_schema',
      schema: { type: 'object', required: ['city', 'population_millions'] },
    });
  });
});

describe('cross-provider handoff', () => {
  it('a triage agent on ScriptedModel hands off to an Anthropic agent, which gets a valid transcript', async () => {
    const lookups: string[] = [];
    const lookupOrder = tool({
      name: 'lookup_order',
      description: 'Finds an order.',
      parameters: z.object({ orderId: z.string() }),
      execute: ({ orderId }) => {
        lookups.push(orderId);
        return `order ${orderId}: paid twice`;
      },
    });
    h.server.enqueue({ kind: 'json', body: ownFixture('text.json') });
    const billing = new Agent({
      name: 'Billing',
      instructions: 'You fix billing problems.',
      handoffDescription: 'Billing issues',
      model: h.model(),
    });
    const triage = new Agent({
      name: 'Triage',
      instructions: 'Route the user.',
      tools: [lookupOrder],
      handoffs: [billing],
      model: new ScriptedModel([
        [
          reasoning('The user mentions an order; look it up.', {
            id: 'rs_1',
            encrypted_content: 'gAAAAB-foreign-opaque',
          }),
          fc('lookup_order', { orderId: 'A17' }, 'call_lookup'),
        ],
        [
          reasoning('Billing should handle this.', { id: 'rs_2' }),
          msg('Let me transfer you.'),
          fc('transfer_to_billing', {}, 'call_handoff'),
        ],
      ]),
    });
    const result = await run(triage, [msg('I was charged twice for order A17.', 'user')]);
    expect(result.lastAgent.name).toBe('Billing');
    expect(result.finalOutput).toBe('The capital of France is Paris.');
    expect(lookups).toEqual(['A17']);

    expect(h.server.requests).toHaveLength(1);
    const sent = h.server.requests[0];
    expect(sent.body.system).toBe('You fix billing problems.');
    expect(sent.rawBody).not.toContain('gAAAAB-foreign-opaque');
    expect(sent.rawBody).not.toContain('Billing should handle this.');
    expect(sent.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'I was charged twice for order A17.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'call_lookup', name: 'lookup_order', input: { orderId: 'A17' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_lookup', content: 'order A17: paid twice' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me transfer you.' },
          { type: 'tool_use', id: 'call_handoff', name: 'transfer_to_billing', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_handoff', content: '{"assistant":"Billing"}' },
        ],
      },
    ]);
    expectValidTranscript(sent.body.messages);
  });
});
