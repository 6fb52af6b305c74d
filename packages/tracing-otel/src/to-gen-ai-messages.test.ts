import { describe, expect, it } from 'vitest';
import { toGenAiInputMessages, toGenAiOutputMessages } from './to-gen-ai-messages.js';

describe('Baton items → GenAI messages (semantic conventions v1.41.0)', () => {
  it('groups an assistant turn into one message and gives each tool result its own tool message', () => {
    const messages = toGenAiInputMessages([
      { type: 'message', role: 'system', content: 'Be brief.' },
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'Weather in Paris and Rome?' }],
      },
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Two lookups.' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
      { type: 'function_call', call_id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call', call_id: 'c2', name: 'weather', arguments: 'not json' },
      { type: 'function_call_output', call_id: 'c1', output: '{"temp":12}' },
      { type: 'function_call_output', call_id: 'c2', output: 'sunny' },
      { type: 'message', role: 'user', content: 'Thanks' },
      { type: 'message', role: 'user', content: 'And tomorrow?' },
    ]);
    expect(messages).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'Be brief.' }] },
      { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris and Rome?' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', content: 'Two lookups.' },
          { type: 'text', content: 'Checking.' },
          { type: 'tool_call', id: 'c1', name: 'weather', arguments: { city: 'Paris' } },
          { type: 'tool_call', id: 'c2', name: 'weather', arguments: 'not json' },
        ],
      },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', result: { temp: 12 } }] },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c2', result: 'sunny' }] },
      { role: 'user', parts: [{ type: 'text', content: 'Thanks' }] },
      { role: 'user', parts: [{ type: 'text', content: 'And tomorrow?' }] },
    ]);
  });

  it('maps images and files to blob, uri and file parts, refusals and hosted items to generic parts', () => {
    const [user, assistant] = toGenAiInputMessages([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
          { type: 'input_image', image_url: 'https://example.com/cat.png' },
          { type: 'input_image', file_id: 'file_1' },
          { type: 'input_file', file_url: 'https://example.com/a.pdf' },
        ],
      },
      { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] },
      { type: 'web_search_call', id: 'ws_1', status: 'completed' },
      'not an item',
    ]);
    expect(user.parts).toEqual([
      { type: 'blob', modality: 'image', mime_type: 'image/png', content: 'iVBORw0KGgo=' },
      { type: 'uri', modality: 'image', uri: 'https://example.com/cat.png' },
      { type: 'file', modality: 'image', file_id: 'file_1' },
      { type: 'uri', modality: 'document', uri: 'https://example.com/a.pdf' },
    ]);
    expect(assistant.parts).toEqual([
      { type: 'refusal', content: 'No.' },
      { type: 'web_search_call', id: 'ws_1' },
    ]);
  });

  it('puts one response in one assistant output message with its finish_reason', () => {
    expect(
      toGenAiOutputMessages([
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hi' }] },
      ]),
    ).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'Hi' }], finish_reason: 'stop' },
    ]);
    expect(
      toGenAiOutputMessages([
        { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
      ])[0].finish_reason,
    ).toBe('tool_call');
  });
});
