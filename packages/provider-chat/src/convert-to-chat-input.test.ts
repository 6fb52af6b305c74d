import type { HostedToolDefinition, Item } from '@baton/kernel';
import { msg } from '@baton/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  collect,
  type Harness,
  makeRequest,
  sentRequestBody,
  startHarness,
  weatherTool,
} from './__fixtures__/harness.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const sentBody = sentRequestBody;

describe('request settings', () => {
  it('maps model settings and merges providerOptions of this provider last', async () => {
    const body = await sentBody([msg('Hi', 'user')], {
      tools: [weatherTool],
      modelSettings: {
        temperature: 0.2,
        topP: 0.9,
        maxOutputTokens: 256,
        toolChoice: 'get_weather',
        parallelToolCalls: false,
        reasoning: { effort: 'low', summary: 'auto' },
        store: false,
        providerOptions: { chat: { temperature: 0.7, seed: 42 }, openai: { service_tier: 'flex' } },
      },
    });
    const { messages, tools, ...rest } = body;
    expect(rest).toEqual({
      model: 'gpt-4.1-mini',
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      temperature: 0.7,
      top_p: 0.9,
      max_completion_tokens: 256,
      reasoning_effort: 'low',
      store: false,
      seed: 42,
      stream: false,
    });
  });

  it('sends no tool_choice or parallel_tool_calls without tools', async () => {
    const body = await sentBody([msg('Hi', 'user')], {
      modelSettings: { toolChoice: 'required', parallelToolCalls: true },
    });
    expect(body).not.toHaveProperty('tool_choice');
    expect(body).not.toHaveProperty('parallel_tool_calls');
    expect(body).not.toHaveProperty('tools');
  });

  it("appends the schema to the system prompt instead of response_format in 'instructions' mode", async () => {
    const schema = {
      type: 'object',
      properties: { n: { type: 'integer' } },
      required: ['n'],
      additionalProperties: false,
    };
    const body = await sentBody(
      [msg('Count', 'user')],
      {
        systemInstructions: 'Count things.',
        outputSchema: { name: 'count', schema, strict: true },
      },
      { structuredOutput: 'instructions' },
    );
    expect(body).not.toHaveProperty('response_format');
    expect(body.messages[0].role).toBe('system');
    expect(body.messages[0].content).toBe(
      `Count things.\n\nRespond with only a JSON value (no prose, no code fence) that matches this JSON Schema (name "count"):\n${JSON.stringify(schema)}`,
    );
  });

  it('streams with stream_options.include_usage and the same conversion', async () => {
    h = await startHarness();
    h.server.enqueue({
      kind: 'sse',
      body: 'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
    });
    await collect(
      h.model.getStreamedResponse(
        makeRequest({ input: [msg('Hi', 'user')], systemInstructions: 'S' }),
      ),
    );
    expect(h.server.requests[0].body).toEqual({
      model: 'gpt-4.1-mini',
      messages: [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'Hi' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
  });
});

describe('Responses-only features fail at request build time', () => {
  const webSearch: HostedToolDefinition = {
    type: 'hosted_tool',
    name: 'web_search',
    providerId: 'openai',
    providerData: { type: 'web_search' },
  };

  it('throws UserError naming the hosted tool and the provider, and sends nothing (getResponse)', async () => {
    h = await startHarness({ providerId: 'deepseek' });
    const error = await h.model
      .getResponse(makeRequest({ tools: [weatherTool, webSearch] }))
      .catch((e) => e);
    expect(error).toMatchObject({ kind: 'UserError' });
    expect(error.message).toContain('"web_search"');
    expect(error.message).toContain('"deepseek"');
    expect(h.server.requests).toEqual([]);
  });

  it('throws UserError for a hosted tool before any request in streaming too', async () => {
    h = await startHarness();
    const error = await collect(
      h.model.getStreamedResponse(makeRequest({ tools: [webSearch] })),
    ).catch((e) => e);
    expect(error).toMatchObject({
      kind: 'UserError',
      message: expect.stringContaining('Hosted tool "web_search"'),
    });
    expect(h.server.requests).toEqual([]);
  });

  it.each([
    ['previousResponseId', { previousResponseId: 'resp_1' }],
    ['conversationId', { conversationId: 'conv_1' }],
    ['modelSettings.include', { modelSettings: { include: ['reasoning.encrypted_content'] } }],
    ["modelSettings.truncation: 'auto'", { modelSettings: { truncation: 'auto' as const } }],
  ])('throws UserError for %s and sends nothing', async (feature, extra) => {
    h = await startHarness();
    const error = await h.model.getResponse(makeRequest(extra)).catch((e) => e);
    expect(error).toMatchObject({ kind: 'UserError' });
    expect(error.message).toContain(feature);
    expect(error.message).toContain('provider "chat"');
    expect(h.server.requests).toEqual([]);
  });

  it('throws UserError for an image given only by file_id and a file given only by file_url', async () => {
    h = await startHarness();
    const image: Item = {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_image', file_id: 'file-1' }],
    };
    const file: Item = {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_file', file_url: 'https://x.test/a.pdf' }],
    };
    await expect(h.model.getResponse(makeRequest({ input: [image] }))).rejects.toMatchObject({
      kind: 'UserError',
      message: expect.stringContaining('file_id'),
    });
    await expect(h.model.getResponse(makeRequest({ input: [file] }))).rejects.toMatchObject({
      kind: 'UserError',
      message: expect.stringContaining('file_url'),
    });
    expect(h.server.requests).toEqual([]);
  });
});
