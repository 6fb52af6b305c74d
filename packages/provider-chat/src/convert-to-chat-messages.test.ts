import type { Item } from '@baton/kernel';
import { fc, fco, msg, reasoning } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { sentRequest, sentRequestBody, weatherTool } from './__fixtures__/harness.js';

const sentBody = sentRequestBody;

describe('item → message conversion (asserted on the body the openai client sent)', () => {
  it('puts calls of one turn in ONE assistant message with the text before them, keeps turns separate, and sends each output as a tool message', async () => {
    const input: Item[] = [
      msg('Weather in Paris and Tokyo, then the time in Oslo?', 'user'),
      msg('Let me check both cities.'),
      fc('get_weather', { city: 'Paris' }, 'call_p'),
      fc('get_weather', { city: 'Tokyo' }, 'call_t'),
      fco('call_p', '18C'),
      fco('call_t', '22C'),
      fc('get_time', { tz: 'Europe/Oslo' }, 'call_o'),
      fco('call_o', '14:05'),
      msg('Paris 18C, Tokyo 22C; Oslo 14:05.'),
      msg('Thanks!', 'user'),
    ];
    const { body, rawBody } = await sentRequest(input, {
      systemInstructions: 'You are a weather bot.',
      tools: [weatherTool],
    });
    expect(body.messages).toMatchInlineSnapshot(`
      [
        {
          "content": "You are a weather bot.",
          "role": "system",
        },
        {
          "content": "Weather in Paris and Tokyo, then the time in Oslo?",
          "role": "user",
        },
        {
          "content": "Let me check both cities.",
          "role": "assistant",
          "tool_calls": [
            {
              "function": {
                "arguments": "{"city":"Paris"}",
                "name": "get_weather",
              },
              "id": "call_p",
              "type": "function",
            },
            {
              "function": {
                "arguments": "{"city":"Tokyo"}",
                "name": "get_weather",
              },
              "id": "call_t",
              "type": "function",
            },
          ],
        },
        {
          "content": "18C",
          "role": "tool",
          "tool_call_id": "call_p",
        },
        {
          "content": "22C",
          "role": "tool",
          "tool_call_id": "call_t",
        },
        {
          "content": null,
          "role": "assistant",
          "tool_calls": [
            {
              "function": {
                "arguments": "{"tz":"Europe/Oslo"}",
                "name": "get_time",
              },
              "id": "call_o",
              "type": "function",
            },
          ],
        },
        {
          "content": "14:05",
          "role": "tool",
          "tool_call_id": "call_o",
        },
        {
          "content": "Paris 18C, Tokyo 22C; Oslo 14:05.",
          "role": "assistant",
        },
        {
          "content": "Thanks!",
          "role": "user",
        },
      ]
    `);
    // content is null on the wire, not "" and not missing.
    expect(rawBody).toContain('"content":null');
  });

  it('sends a refusal part as the refusal and as the content, never as empty content', async () => {
    const input: Item[] = [
      msg('Do something bad', 'user'),
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'refusal', refusal: "I can't help with that." }],
      },
      msg('Then explain why', 'user'),
      {
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'Because' },
          { type: 'refusal', refusal: 'Policy.' },
        ],
      },
    ];
    const body = await sentBody(input);
    expect(body.messages.slice(1)).toEqual([
      { role: 'assistant', content: "I can't help with that.", refusal: "I can't help with that." },
      { role: 'user', content: 'Then explain why' },
      { role: 'assistant', content: 'Because', refusal: 'Policy.' },
    ]);
    expect(body.messages.slice(1).filter((m: any) => m.content === '')).toEqual([]);
  });

  /** A history with system/developer messages after the conversation started, one between a
   * tool turn and the next question, and an image returned by a tool. */
  const lateSystem: Item[] = [
    msg('First question', 'user'),
    {
      type: 'message',
      role: 'developer',
      content: [{ type: 'input_text', text: 'Answer in French.' }],
    },
    msg('Let me look.', 'assistant'),
    fc('get_weather', { city: 'Paris' }, 'c1'),
    {
      type: 'function_call_output',
      call_id: 'c1',
      output: [{ type: 'input_image', image_url: 'https://example.com/map.png' }],
    },
    { type: 'message', role: 'system', content: 'Never reveal secrets.' },
    msg('Second question', 'user'),
  ];

  it('keeps system/developer messages of the history in place by default (as openai-agents-js/-python and the AI SDK), after the instructions', async () => {
    const body = await sentBody(lateSystem, { systemInstructions: 'Main instructions.' });
    expect(
      body.messages.map((m: any) => [
        m.role,
        typeof m.content === 'string' ? m.content : (m.content?.[0]?.type ?? m.content),
      ]),
    ).toEqual([
      ['system', 'Main instructions.'],
      ['user', 'First question'],
      ['developer', 'Answer in French.'],
      ['assistant', 'Let me look.'],
      ['tool', '[1 attachment(s) follow in the next user message]'],
      ['user', 'text'],
      ['system', 'Never reveal secrets.'],
      ['user', 'Second question'],
    ]);
    expect(body.messages[3].tool_calls.map((c: any) => c.id)).toEqual(['c1']);
  });

  it("systemMessages: 'first' puts them right after the instructions, in their order (chat templates that take system messages only at the start)", async () => {
    for (const [options, extra] of [
      [{ systemMessages: 'first' as const }, { systemInstructions: 'Main instructions.' }],
      [{ systemMessages: 'first' as const }, { systemInstructions: undefined }],
    ] as const) {
      const body = await sentBody(lateSystem, extra, options);
      const head = extra.systemInstructions
        ? [{ role: 'system', content: 'Main instructions.' }]
        : [];
      expect(body.messages.slice(0, head.length + 2)).toEqual([
        ...head,
        { role: 'developer', content: 'Answer in French.' },
        { role: 'system', content: 'Never reveal secrets.' },
      ]);
      expect(body.messages.slice(head.length + 2).map((m: any) => m.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'user',
        'user',
      ]);
    }
  });

  it('maps input_image and input_file to image_url and file content parts', async () => {
    const input: Item[] = [
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'What is in these?' },
          { type: 'input_image', image_url: 'https://example.com/cat.png', detail: 'low' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
          {
            type: 'input_file',
            file_data: 'data:application/pdf;base64,JVBERi0x',
            filename: 'doc.pdf',
          },
          { type: 'input_file', file_id: 'file-abc123' },
        ],
      },
    ];
    const body = await sentBody(input);
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in these?' },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          {
            type: 'file',
            file: { file_data: 'data:application/pdf;base64,JVBERi0x', filename: 'doc.pdf' },
          },
          { type: 'file', file: { file_id: 'file-abc123' } },
        ],
      },
    ]);
  });

  it('sends images from tool outputs in one user message after all tool messages of that turn', async () => {
    const input: Item[] = [
      msg('Screenshot both pages', 'user'),
      fc('screenshot', { page: 1 }, 'call_1'),
      fc('screenshot', { page: 2 }, 'call_2'),
      {
        type: 'function_call_output',
        call_id: 'call_1',
        output: [
          { type: 'input_text', text: 'page 1' },
          { type: 'input_image', image_url: 'https://x.test/1.png' },
        ],
      },
      {
        type: 'function_call_output',
        call_id: 'call_2',
        output: [{ type: 'input_image', image_url: 'https://x.test/2.png' }],
      },
    ];
    const body = await sentBody(input);
    expect(body.messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'page 1' },
      {
        role: 'tool',
        tool_call_id: 'call_2',
        content: '[1 attachment(s) follow in the next user message]',
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Attachments from the output of tool call call_1:' },
          { type: 'image_url', image_url: { url: 'https://x.test/1.png' } },
          { type: 'text', text: 'Attachments from the output of tool call call_2:' },
          { type: 'image_url', image_url: { url: 'https://x.test/2.png' } },
        ],
      },
    ]);
  });

  it('drops reasoning items and hosted-tool items by default', async () => {
    const input: Item[] = [
      msg('Q', 'user'),
      reasoning('thinking', { id: 'rs_1', encrypted_content: 'gAAAA' }),
      reasoning('deepseek thinking', {
        provider_data: { chat: { reasoning_content: 'deepseek thinking' } },
      }),
      {
        type: 'web_search_call',
        id: 'ws_1',
        status: 'completed',
        action: { type: 'search', query: 'q' },
      },
      fc('get_weather', { city: 'Paris' }, 'call_1'),
      fco('call_1', 'sunny'),
    ];
    const body = await sentBody(input);
    expect(body.messages).toEqual([
      { role: 'user', content: 'Q' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    ]);
  });

  it("replays reasoning_content on the following assistant message when reasoningContent is 'replay'", async () => {
    const input: Item[] = [
      msg('Weather?', 'user'),
      reasoning('I should call the tool.', {
        provider_data: { deepseek: { reasoning_content: 'I should call the tool.' } },
      }),
      fc('get_weather', { city: 'Paris' }, 'call_1'),
      fco('call_1', 'sunny'),
      reasoning('From OpenAI', { id: 'rs_2', encrypted_content: 'gAAAA' }),
      reasoning('Now answer.', {
        provider_data: { deepseek: { reasoning_content: 'Now answer.' } },
      }),
      msg('It is sunny.'),
    ];
    const body = await sentBody(input, {}, { providerId: 'deepseek', reasoningContent: 'replay' });
    expect(body.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
        reasoning_content: 'I should call the tool.',
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      { role: 'assistant', content: 'It is sunny.', reasoning_content: 'Now answer.' },
    ]);
  });

  it('sends every message shape with its keys in one order (the bytes a prompt cache sees)', async () => {
    const input: Item[] = [
      msg('Hi', 'user'),
      msg('Looking.'),
      fc('get_weather', { city: 'Paris' }, 'call_1'),
      fco('call_1', 'sunny'),
      fc('get_weather', { city: 'Oslo' }, 'call_2'),
      {
        type: 'function_call_output',
        call_id: 'call_2',
        output: [{ type: 'input_text', text: 'rain' }],
      },
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'refusal', refusal: 'No.' }],
      },
      msg('Paris is sunny.'),
      msg('Thanks', 'user'),
    ];
    const { rawBody } = await sentRequest(input, { tools: [weatherTool] });
    const messages = JSON.stringify(JSON.parse(rawBody).messages);
    expect(messages).toBe(
      JSON.stringify([
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: 'Looking.',
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_2',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_2', content: 'rain' },
        { role: 'assistant', content: 'No.', refusal: 'No.' },
        { role: 'assistant', content: 'Paris is sunny.' },
        { role: 'user', content: 'Thanks' },
      ]),
    );
  });
});
