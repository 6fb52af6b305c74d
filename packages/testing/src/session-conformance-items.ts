/**
 * Items used by the session conformance suite: one of every type of the item vocabulary
 * (OpenAI Responses API item shapes), unicode samples and large text. Kept free of `undefined`
 * fields so a deep-equal after a JSON round trip is meaningful.
 */
import type { Item, MessageItem } from '@baton/kernel';

/** `count` user messages whose content is `${prefix}${index}`. */
export function tagged(prefix: string, count: number): MessageItem[] {
  return Array.from({ length: count }, (_, i) => ({
    type: 'message',
    role: 'user',
    content: `${prefix}${i}`,
  }));
}

/** A text of exactly `length` UTF-16 code units mixing ASCII and multi-byte characters. */
export function largeText(length: number): string {
  const unit = 'Baton 1MB item: ascii, é, 中文, 🚀 / ';
  let text = unit.repeat(Math.ceil(length / unit.length)).slice(0, length - 1);
  // Never end on half a surrogate pair: lone surrogates are outside the contract.
  const last = text.charCodeAt(text.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) text = `${text.slice(0, -1)}x`;
  return `${text}.`;
}

/** Messages with emoji (incl. ZWJ sequences and flags), CJK, RTL text and combining marks. */
export function unicodeItems(): Item[] {
  return [
    { type: 'message', role: 'user', content: 'emoji 😀👩‍👩‍👧‍👦🏳️‍🌈🇯🇵 and a 🚀' },
    {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: '中文 日本語 한국어 — ok' }],
    },
    { type: 'message', role: 'user', content: 'cafe\u0301 / caf\u00e9' },
    {
      type: 'message',
      role: 'user',
      content: 'RTL: مرحبا بالعالم שלום; Zalgo: Z̷̢a̸l̵g̶o̴; nul-free \u2028\u2029 \t "quotes" \\ /',
    },
    {
      type: 'function_call',
      call_id: 'call_ü',
      name: 'lookup',
      arguments: '{"q":"Ñandú 🐦 \\u00e9"}',
    },
  ];
}

/**
 * One item of every kind a session must store: messages with string content and with every
 * content part type, a function call, function call outputs with string and with parts output,
 * reasoning with `encrypted_content` and `provider_data`, a hosted `web_search_call` with nested
 * fields, an `mcp_call`, and a `compaction` item.
 */
export function conformanceItems(): Item[] {
  return [
    { type: 'message', role: 'system', content: 'You are terse.' },
    { type: 'message', role: 'developer', content: 'Answer in English.' },
    {
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: 'Look at these.' },
        { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' },
        { type: 'input_image', file_id: 'file_img_1', detail: 'auto' },
        {
          type: 'input_file',
          file_data: 'data:application/pdf;base64,JVBERi0x',
          filename: 'a.pdf',
        },
        { type: 'input_file', file_id: 'file_pdf_2' },
        { type: 'input_file', file_url: 'https://example.com/b.pdf' },
      ],
    },
    {
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 'Thinking about the files.' }],
      content: [{ type: 'reasoning_text', text: 'raw reasoning' }],
      encrypted_content: 'gAAAAABencrypted==',
      provider_data: {
        anthropic: { signature: 'sig_abc', redacted: false },
        chat: { reasoning_content: 'hm' },
      },
    },
    {
      type: 'function_call',
      id: 'fc_1',
      call_id: 'call_1',
      name: 'get_weather',
      arguments: '{"city":"Paris","units":["c",null,1.5]}',
      status: 'completed',
    },
    { type: 'function_call_output', call_id: 'call_1', output: '{"temp":21}' },
    {
      type: 'function_call_output',
      call_id: 'call_2',
      output: [
        { type: 'input_text', text: 'chart follows' },
        { type: 'input_image', image_url: 'https://example.com/chart.png' },
        { type: 'input_file', file_id: 'file_3', filename: 'data.csv' },
      ],
    },
    {
      type: 'web_search_call',
      id: 'ws_1',
      status: 'completed',
      action: {
        type: 'search',
        query: 'baton agents',
        sources: [
          { type: 'url', url: 'https://example.com/a' },
          { type: 'url', url: 'https://example.com/b' },
        ],
      },
      provider_data: { openai: { nested: { deep: [1, 2, { three: true }] } } },
    },
    {
      type: 'mcp_call',
      id: 'mcp_1',
      server_label: 'fs',
      name: 'read_file',
      arguments: '{"path":"/tmp/x"}',
      output: 'hello',
      error: null,
    },
    { type: 'compaction', id: 'cmp_1', encrypted_content: 'compacted-opaque-blob==' },
    {
      type: 'message',
      role: 'assistant',
      id: 'msg_1',
      status: 'completed',
      phase: 'final_answer',
      content: [
        {
          type: 'output_text',
          text: 'It is 21°C.',
          annotations: [
            { type: 'url_citation', url: 'https://example.com/a', start_index: 0, end_index: 5 },
          ],
        },
        { type: 'refusal', refusal: 'I will not share more.' },
      ],
    },
  ];
}
