/**
 * The single-pass converters send exactly the bytes the previous implementation sent (kept as the
 * oracle in `__fixtures__/reference/`): same JSON text, key order included, or the same
 * `UserError` message — on every schema-valid transcript (fast-check, fixed seed), on histories
 * mixing every item kind and content shape, and on the long history of bench P2.
 */
import type { Item, ModelRequest } from '@baton/kernel';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversionOutcome, p2History } from '../../../fuzz/arbitraries/converter-checks.js';
import { itemsArbitrary } from '../../../fuzz/arbitraries/items.js';
import { convertToChatInput as referenceInput } from './__fixtures__/reference/convert-to-chat-input.js';
import { type ChatInputOptions, convertToChatInput } from './convert-to-chat-input.js';

function request(input: Item[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    input,
    systemInstructions: 'Be brief.',
    tools: [
      {
        type: 'function',
        name: 'lookup',
        description: 'Looks up an order.',
        parameters: { type: 'object', properties: { order: { type: 'string' } } },
        strict: true,
      },
    ],
    modelSettings: {},
    tracing: { enabled: false, includeSensitiveData: false },
    ...extra,
  };
}

const OPTIONS: ChatInputOptions[] = [
  { providerId: 'chat' },
  { providerId: 'chat', reasoningContent: 'replay' },
  { providerId: 'chat', toolCallIdFormat: 'alphanumeric9' },
  { providerId: 'chat', reasoningContent: 'replay', toolCallIdFormat: 'alphanumeric9' },
  { providerId: 'chat', structuredOutput: 'instructions' },
];

function expectSame(req: ModelRequest, options: ChatInputOptions) {
  // The reference converters put system/developer messages first (now `systemMessages: 'first'`).
  const now = conversionOutcome(() =>
    convertToChatInput(req, 'm', { ...options, systemMessages: 'first' }),
  );
  const before = conversionOutcome(() => referenceInput(req, 'm', options));
  expect(now).toEqual(before);
  return now;
}

const img = (url: string) => ({ type: 'input_image', image_url: url, detail: 'low' }) as const;
const file = {
  type: 'input_file',
  file_data: 'data:application/pdf;base64,AA==',
  filename: 'a.pdf',
} as const;
const thinking = (text: string): Item =>
  ({
    type: 'reasoning',
    summary: [],
    provider_data: { chat: { reasoning_content: text } },
  }) as unknown as Item;

/** Every item kind and content shape the converter handles, in orders that exercise its merging. */
const MIXED: Item[] = [
  { type: 'message', role: 'developer', content: 'Dev note.' },
  { type: 'message', role: 'user', content: 'Hi' },
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'one part' }] },
  { type: 'message', role: 'user', content: [{ type: 'output_text', text: 'an output part' }] },
  {
    type: 'message',
    role: 'user',
    content: [
      { type: 'input_text', text: 'a' },
      { type: 'input_text', text: 'b' },
    ],
  },
  {
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: 'see' }, img('https://x/y.png'), file],
  },
  thinking('Let me think.'),
  { type: 'message', role: 'assistant', content: 'Looking.' },
  { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{"order":"1"}' },
  {
    type: 'function_call',
    call_id: 'call_2',
    name: 'lookup',
    arguments: '{}',
    provider_data: { chat: { extra_content: { google: { thought_signature: 's' } } } },
  } as Item,
  { type: 'function_call_output', call_id: 'call_1', output: 'one' },
  {
    type: 'function_call_output',
    call_id: 'call_2',
    output: [{ type: 'input_text', text: 'x' }, img('data:image/png;base64,AA==')],
  },
  { type: 'function_call_output', call_id: 'call_2', output: [img('https://x/z.png')] },
  { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'Late system.' }] },
  thinking('Again.'),
  { type: 'function_call', call_id: 'call_3', name: 'lookup', arguments: '{}' },
  {
    type: 'function_call_output',
    call_id: 'call_3',
    output: [
      { type: 'output_text', text: 't1' },
      { type: 'input_text', text: 't2' },
    ],
  },
  { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] },
  {
    type: 'message',
    role: 'assistant',
    content: [
      { type: 'output_text', text: 'A' },
      { type: 'refusal', refusal: 'R' },
      { type: 'output_text', text: 'B' },
    ],
  },
  { type: 'message', role: 'assistant', content: [] },
  { type: 'message', role: 'assistant', content: '' },
  { type: 'web_search_call', id: 'ws_1', status: 'completed' } as unknown as Item,
  { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] },
  { type: 'message', role: 'developer', content: 'Very late developer note.' },
  { type: 'function_call', call_id: 'call_4', name: 'lookup', arguments: '{}' },
];

describe('chat converters: the same bytes as before the single-pass rewrite', () => {
  it('every item kind and content shape, with each option, in every prefix of a mixed history', () => {
    for (const options of OPTIONS)
      for (let end = 0; end <= MIXED.length; end++) {
        const out = expectSame(request(MIXED.slice(0, end)), options);
        expect('json' in out).toBe(true);
      }
  });

  it('the same for every suffix (a history that starts mid-turn), and without system instructions', () => {
    for (const options of OPTIONS)
      for (let start = 0; start < MIXED.length; start++) {
        expectSame(request(MIXED.slice(start)), options);
        expectSame(request(MIXED.slice(start), { systemInstructions: undefined }), options);
      }
  });

  it('settings, tool choice, structured output and provider options', () => {
    const outputSchema = { name: 'an answer!', schema: { type: 'object' }, strict: true };
    for (const options of OPTIONS)
      expectSame(
        request(MIXED, {
          outputSchema,
          modelSettings: {
            toolChoice: 'lookup',
            parallelToolCalls: false,
            temperature: 0.2,
            topP: 0.9,
            maxOutputTokens: 100,
            reasoning: { effort: 'low' },
            store: false,
            providerOptions: { chat: { seed: 7, temperature: 1 } },
          },
        } as Partial<ModelRequest>),
        options,
      );
  });

  it('the same UserError for content Chat Completions cannot carry and for Responses-only features', () => {
    const bad: [Item[], Partial<ModelRequest>][] = [
      [
        [
          {
            type: 'message',
            role: 'user',
            content: [{ type: 'input_image', file_id: 'f' }],
          } as Item,
        ],
        {},
      ],
      [[{ type: 'message', role: 'system', content: [img('https://x/y.png')] } as Item], {}],
      [
        [
          {
            type: 'message',
            role: 'assistant',
            content: [{ type: 'output_text' }],
          } as unknown as Item,
        ],
        {},
      ],
      [
        [
          {
            type: 'function_call_output',
            call_id: 'c',
            output: [{ type: 'input_file', file_url: 'https://x' }],
          } as Item,
        ],
        {},
      ],
      [[], { previousResponseId: 'resp_1' }],
      [
        [],
        { modelSettings: { include: ['reasoning.encrypted_content'] } } as Partial<ModelRequest>,
      ],
      [[], { modelSettings: { truncation: 'auto' } } as Partial<ModelRequest>],
    ];
    for (const [input, extra] of bad) {
      const out = expectSame(request([...MIXED.slice(0, 3), ...input], extra), OPTIONS[0]!);
      expect('error' in out).toBe(true);
    }
  });

  it('P2 histories of 100 and 1,000 items', () => {
    for (const n of [100, 1000])
      for (const options of OPTIONS) expectSame(request(p2History(n)), options);
  });

  it('any schema-valid transcript (fast-check, fixed seed)', async () => {
    const items = await itemsArbitrary(12);
    fc.assert(
      fc.property(
        items,
        fc.option(fc.string({ maxLength: 5 }), { nil: undefined }),
        fc.constantFrom(...OPTIONS),
        (input, system, options) => {
          expectSame(request(input, { systemInstructions: system }), options);
        },
      ),
      { numRuns: 3000, seed: 20261201 },
    );
  });
});
