/**
 * The single-pass converter and the leaner request builder send exactly the bytes the previous
 * implementation sent (kept as the oracle in `__fixtures__/reference/`): same JSON text, key
 * order included, or the same `UserError` message — on every schema-valid transcript
 * (fast-check, fixed seed), on histories mixing every item kind and content shape, and on the
 * long history of bench P2.
 */
import type { Item, ModelRequest } from '@baton/kernel';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversionOutcome, p2History } from '../../../fuzz/arbitraries/converter-checks.js';
import { itemsArbitrary } from '../../../fuzz/arbitraries/items.js';
import { buildAnthropicRequest as referenceRequest } from './__fixtures__/reference/anthropic-request.js';
import { type AnthropicRequestOptions, buildAnthropicRequest } from './anthropic-request.js';

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
      {
        type: 'function',
        name: 'untyped',
        description: '',
        parameters: { properties: {} },
        strict: false,
      },
    ],
    modelSettings: {},
    tracing: { enabled: false, includeSensitiveData: false },
    ...extra,
  } as ModelRequest;
}

const OPTIONS: AnthropicRequestOptions[] = [{}, { promptCaching: true }, { defaultMaxTokens: 100 }];

function expectSame(req: ModelRequest, options: AnthropicRequestOptions) {
  // Each side gets its own copy: the builders must not depend on (or leave) shared state.
  const copy = structuredClone(req);
  const now = conversionOutcome(() => buildAnthropicRequest('claude', req, options));
  const before = conversionOutcome(() => referenceRequest('claude', copy, options));
  expect(now).toEqual(before);
  return now;
}

const img = (url: string) => ({ type: 'input_image', image_url: url }) as const;
const pdf = {
  type: 'input_file',
  file_data: 'data:application/pdf;base64,AA==',
  filename: 'a.pdf',
} as const;
const txt = { type: 'input_file', file_data: 'data:text/plain,h%C3%A9llo' } as const;
const thinking: Item = {
  type: 'reasoning',
  summary: [{ type: 'summary_text', text: 'Thinking.' }],
  provider_data: { anthropic: { type: 'thinking', signature: 'sig' } },
} as unknown as Item;
const redacted: Item = {
  type: 'reasoning',
  summary: [],
  provider_data: { anthropic: { type: 'redacted_thinking', data: 'xyz' } },
} as unknown as Item;
const serverCall: Item = {
  type: 'hosted_tool_call',
  name: 'code_execution',
  provider_data: {
    anthropic: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'code_execution', input: {} },
  },
} as unknown as Item;

/** Every item kind and content shape the converter handles, in orders that exercise merging. */
const MIXED: Item[] = [
  { type: 'message', role: 'developer', content: 'Dev note.' },
  { type: 'message', role: 'user', content: 'Hi' },
  { type: 'message', role: 'user', content: '' },
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
    content: [
      { type: 'input_text', text: 'see' },
      img('https://x/y.png'),
      img('data:image/png;base64,AA=='),
      pdf,
      txt,
    ],
  },
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: '' }] },
  thinking,
  { type: 'message', role: 'assistant', content: 'Looking.' },
  { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{"order":"1"}' },
  { type: 'function_call', call_id: 'call.2/x', name: 'lookup', arguments: 'not json' },
  serverCall,
  {
    type: 'function_call',
    call_id: 'toolu_3',
    name: 'lookup',
    arguments: '[]',
    provider_data: {
      anthropic: { caller: { type: 'code_execution_20250825', tool_id: 'srvtoolu_1' } },
    },
  } as Item,
  {
    type: 'function_call',
    call_id: 'toolu_4',
    name: 'lookup',
    arguments: '{}',
    provider_data: {
      anthropic: { caller: { type: 'code_execution_20250825', tool_id: 'srvtoolu_gone' } },
    },
  } as Item,
  { type: 'function_call_output', call_id: 'toolu_4', output: 'four' },
  { type: 'message', role: 'user', content: 'Between.' },
  {
    type: 'function_call_output',
    call_id: 'call.2/x',
    output: [{ type: 'input_text', text: 'x' }, img('https://x/z.png')],
  },
  { type: 'function_call_output', call_id: 'call_1', output: '' },
  { type: 'function_call_output', call_id: 'toolu_3', output: [] },
  { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'Late system.' }] },
  redacted,
  { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] },
  {
    type: 'message',
    role: 'assistant',
    content: [
      { type: 'output_text', text: 'A' },
      { type: 'refusal', refusal: 'R' },
    ],
  },
  { type: 'message', role: 'assistant', content: [] },
  { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] },
  { type: 'web_search_call', id: 'ws_1', status: 'completed' } as unknown as Item,
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Thanks' }] },
];

describe('anthropic request: the same bytes as before the single-pass rewrite', () => {
  it('every item kind and content shape, with each option, in every prefix and suffix of a mixed history', () => {
    for (const options of OPTIONS)
      for (let k = 0; k <= MIXED.length; k++) {
        expect('json' in expectSame(request(MIXED.slice(0, k)), options)).toBe(true);
        expectSame(request(MIXED.slice(k), { systemInstructions: undefined }), options);
      }
  });

  it('settings, tool choice, thinking, structured output and provider options', () => {
    const settings = [
      {
        toolChoice: 'lookup',
        parallelToolCalls: false,
        temperature: 0.2,
        topP: 0.9,
        maxOutputTokens: 100,
      },
      { toolChoice: 'required', thinking: { budgetTokens: 5000 } },
      {
        parallelToolCalls: false,
        providerOptions: { anthropic: { max_tokens: 7, output_config: { effort: 'low' } } },
      },
      { providerOptions: { anthropic: { top_k: 3 } } },
    ];
    for (const modelSettings of settings)
      for (const options of OPTIONS)
        expectSame(
          request(MIXED, {
            modelSettings,
            outputSchema: { name: 'o', schema: { type: 'object' }, strict: true },
          } as Partial<ModelRequest>),
          options,
        );
  });

  it('the same UserError for content and features Anthropic cannot take', () => {
    const bad: [Item[], Partial<ModelRequest>][] = [
      [
        [
          {
            type: 'message',
            role: 'user',
            content: [{ type: 'input_file', file_data: 'data:application/zip;base64,AA==' }],
          } as Item,
        ],
        {},
      ],
      [
        [{ type: 'message', role: 'user', content: [img('data:image/png;base64,@@@@')] } as Item],
        {},
      ],
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
      [[], { previousResponseId: 'resp_1' }],
      [
        [],
        {
          tools: [
            { type: 'hosted_tool', name: 'web_search', providerId: 'openai', providerData: {} },
          ],
        } as unknown as Partial<ModelRequest>,
      ],
    ];
    for (const [input, extra] of bad)
      expect('error' in expectSame(request([...MIXED.slice(0, 3), ...input], extra), {})).toBe(
        true,
      );
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
