import { type Item, UserError } from '@baton/kernel';
import { fc, fco, msg, reasoning } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { convertToAnthropicInput } from './convert-to-anthropic-input.js';

describe('convertToAnthropicInput', () => {
  it('collects systemInstructions and system/developer messages into system, in order', () => {
    const out = convertToAnthropicInput(
      [msg('Rule A', 'system'), msg('hi', 'user'), msg('Rule B', 'developer'), msg('', 'system')],
      'Base',
    );
    expect(out.system).toEqual(['Base', 'Rule A', 'Rule B']);
    expect(out.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
  });

  it('merges consecutive items of one role so roles alternate, and never sends empty text', () => {
    const items: Item[] = [
      msg('one', 'user'),
      msg('', 'user'),
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'two' },
          { type: 'input_text', text: '' },
        ],
      },
      msg('a'),
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '' }] },
      msg('b'),
      msg('three', 'user'),
    ];
    expect(convertToAnthropicInput(items).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'three' }] },
    ]);
  });

  it('sends invalid or non-object JSON arguments as {} and makes foreign call ids fit Anthropic', () => {
    const items: Item[] = [
      msg('go', 'user'),
      fc('broken', '{"a": ', 'call.1'),
      fc('list', '[1,2]', 'call_2'),
      fco('call.1', 'bad args'),
      fco('call_2', 'ok'),
    ];
    const { messages } = convertToAnthropicInput(items);
    expect(messages[1].content).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'broken', input: {} },
      { type: 'tool_use', id: 'call_2', name: 'list', input: {} },
    ]);
    expect(messages[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 'call_1', content: 'bad args' },
      { type: 'tool_result', tool_use_id: 'call_2', content: 'ok' },
    ]);
  });

  it('parses the arguments of a call again when its item changed between two requests', () => {
    const call = fc('lookup', '{"q":"a"}', 'call_1');
    const items: Item[] = [msg('go', 'user'), call, fco('call_1', 'ok')];
    const inputOf = () =>
      (convertToAnthropicInput(items).messages[1].content[0] as { input: unknown }).input;
    expect(inputOf()).toEqual({ q: 'a' });
    expect(inputOf()).toEqual({ q: 'a' }); // the same item again (a later turn)
    (call as { arguments: string }).arguments = '{"q":"b"}';
    expect(inputOf()).toEqual({ q: 'b' });
    (call as { arguments: string }).arguments = '   ';
    expect(inputOf()).toEqual({});
  });

  it('puts tool results first (in call order) when a user message sits between calls and outputs', () => {
    const items: Item[] = [
      msg('go', 'user'),
      fc('a', {}, 'c1'),
      fc('b', {}, 'c2'),
      msg('also this', 'user'),
      fco('c2', 'B'),
      fco('c1', ''),
    ];
    expect(convertToAnthropicInput(items).messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'c1' },
        { type: 'tool_result', tool_use_id: 'c2', content: 'B' },
        { type: 'text', text: 'also this' },
      ],
    });
  });

  it('drops reasoning and hosted items of other providers; keeps Anthropic ones verbatim', () => {
    const block = {
      type: 'server_tool_use',
      id: 'srvtoolu_1',
      name: 'web_search',
      input: { query: 'q' },
    };
    const items: Item[] = [
      msg('q', 'user'),
      reasoning('openai summary', {
        encrypted_content: 'enc',
        provider_data: { openai: { x: 1 } },
      }),
      { type: 'web_search_call', id: 'ws_1', status: 'completed' },
      reasoning('claude thinks', {
        provider_data: { anthropic: { type: 'thinking', signature: 'sig==' } },
      }),
      { type: 'hosted_tool_call', provider_data: { anthropic: block } },
      msg('done'),
    ];
    expect(convertToAnthropicInput(items).messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'claude thinks', signature: 'sig==' },
        block,
        { type: 'text', text: 'done' },
      ],
    });
  });

  it('turns images and files into image/document blocks (data URLs, URLs, file ids)', () => {
    const items: Item[] = [
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'look' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
          { type: 'input_image', image_url: 'https://example.org/cat.jpg' },
          { type: 'input_image', file_id: 'file_img' },
          {
            type: 'input_file',
            file_data: 'data:application/pdf;base64,JVBERi0x',
            filename: 'a.pdf',
          },
          { type: 'input_file', file_url: 'https://example.org/b.pdf' },
          { type: 'input_file', file_id: 'file_doc' },
          { type: 'input_file', file_data: 'data:text/plain;base64,aMOpbGxv', filename: 'h.txt' },
        ],
      },
    ];
    expect(convertToAnthropicInput(items).messages[0].content).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { type: 'url', url: 'https://example.org/cat.jpg' } },
      { type: 'image', source: { type: 'file', file_id: 'file_img' } },
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' },
        title: 'a.pdf',
      },
      { type: 'document', source: { type: 'url', url: 'https://example.org/b.pdf' } },
      { type: 'document', source: { type: 'file', file_id: 'file_doc' } },
      {
        type: 'document',
        source: { type: 'text', media_type: 'text/plain', data: 'héllo' },
        title: 'h.txt',
      },
    ]);
  });

  it('sends tool outputs made of parts as tool_result content blocks', () => {
    const items: Item[] = [
      fc('shot', {}, 'c1'),
      {
        type: 'function_call_output',
        call_id: 'c1',
        output: [
          { type: 'input_text', text: 'see' },
          { type: 'input_image', image_url: 'data:image/jpeg;base64,/9j/' },
        ],
      },
    ];
    expect(convertToAnthropicInput(items).messages[1].content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'c1',
        content: [
          { type: 'text', text: 'see' },
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/' } },
        ],
      },
    ]);
  });

  it('rejects a file type Anthropic cannot read with a UserError naming it', () => {
    const items: Item[] = [
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_file', file_data: 'data:application/zip;base64,UEsD', filename: 'x.zip' },
        ],
      },
    ];
    expect(() => convertToAnthropicInput(items)).toThrow(UserError);
    expect(() => convertToAnthropicInput(items)).toThrow(
      /"x.zip" of media type "application\/zip"/,
    );
  });
});
