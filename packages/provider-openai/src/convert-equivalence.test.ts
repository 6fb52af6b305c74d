/**
 * The faster Responses request builder sends exactly the bytes the previous implementation sent
 * (kept as the oracle in `__fixtures__/reference/`), and `toResponsesInputItem` returns the same
 * objects (same keys, same order): on every schema-valid transcript (fast-check, fixed seed), on
 * histories mixing every item kind, and on the long history of bench P2.
 */
import type { Item, ModelRequest } from '@baton/kernel';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { itemsArbitrary } from '../../../fuzz/arbitraries/items.js';
import {
  toResponsesInputItem as referenceItem,
  buildResponsesRequest as referenceRequest,
} from './__fixtures__/reference/convert-to-openai-input.js';
import { buildResponsesRequest, toResponsesInputItem } from './convert-to-openai-input.js';

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
  } as ModelRequest;
}

/** Keys (own, in order, recursively) and JSON of a value: what a caller or the wire can see. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value !== 'object' || value === null) return value;
  return Object.keys(value).map((k) => [k, shape((value as Record<string, unknown>)[k])]);
}

function expectSame(req: ModelRequest) {
  for (const store of [undefined, false, true]) {
    const r = { ...req, modelSettings: { ...req.modelSettings, store } };
    const now = buildResponsesRequest(r, { modelId: 'gpt' });
    const before = referenceRequest(r, { modelId: 'gpt' });
    expect(JSON.stringify(now)).toBe(JSON.stringify(before));
    for (const item of req.input)
      expect(shape(toResponsesInputItem(item, { store }))).toEqual(
        shape(referenceItem(item, { store })),
      );
  }
}

const answer = (text: string, extra: Record<string, unknown> = {}): Item =>
  ({
    type: 'message',
    id: 'msg_1',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text }],
    ...extra,
  }) as Item;

/** Every item kind and shape the fast path and the slow path handle. */
const MIXED: Item[] = [
  { type: 'message', role: 'user', content: 'Hi' },
  { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Dev.' }] },
  answer('A'),
  answer('B', { provider_data: undefined }),
  answer('C', { created_by: undefined, id: undefined }),
  answer('D', { provider_data: { openai: { x: 1 } } }),
  answer('E', { id: 'foreign_1' }),
  answer('F', { id: 'msgX' }),
  { type: 'function_call', id: 'fcX', call_id: 'c3', name: 'lookup', arguments: '{}' },
  { type: 'message', role: 'assistant', content: 'plain' },
  // An own `__proto__` key (as JSON.parse makes it): the key-by-key copy drops it.
  JSON.parse(
    '{"type":"message","role":"assistant","__proto__":null,"content":[{"type":"output_text","text":"p"}]}',
  ),
  {
    type: 'message',
    role: 'assistant',
    content: [
      { type: 'output_text', text: 'x', annotations: [] },
      { type: 'output_text', text: 'y' },
      { type: 'refusal', refusal: 'no' },
      { type: 'output_text', text: 'z', logprobs: [] },
    ],
  } as Item,
  {
    type: 'message',
    role: 'assistant',
    content: [{ text: 'reordered', type: 'output_text' }],
  } as Item,
  {
    type: 'function_call',
    id: 'fc_1',
    call_id: 'c1',
    name: 'lookup',
    arguments: '{}',
    status: 'completed',
  },
  { type: 'function_call', id: 'toolu_1', call_id: 'c2', name: 'lookup', arguments: '{}' },
  { type: 'function_call_output', call_id: 'c1', output: 'one' },
  { type: 'function_call_output', call_id: 'c2', output: [{ type: 'input_text', text: 't' }] },
  { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'enc' } as Item,
  { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: null } as unknown as Item,
  { type: 'reasoning', id: 'other', summary: [] } as Item,
  { type: 'hosted_tool_call', name: 'x' } as unknown as Item,
  { type: 'web_search_call', id: 'ws_1', status: 'completed' } as unknown as Item,
  { type: 'compaction', id: 'cmp_1', encrypted_content: 'c' } as unknown as Item,
  answer('after compaction'),
  { type: 'local_shell_call_output', call_id: 'ls_1', output: 'ok' } as unknown as Item,
  { type: 'compaction', id: 'cmp_2', encrypted_content: 'd' } as unknown as Item,
  { type: 'message', role: 'user', content: 'Last' },
];

function benchHistory(n: number): Item[] {
  return Array.from({ length: n }, (_, i): Item => {
    const call = `call_${Math.floor(i / 4)}`;
    const text = `text ${i}`;
    switch (i % 4) {
      case 0:
        return { type: 'message', role: 'user', content: text };
      case 1:
        return {
          type: 'function_call',
          id: `fc_${i}`,
          call_id: call,
          name: 'lookup',
          arguments: '{}',
          status: 'completed',
        };
      case 2:
        return { type: 'function_call_output', call_id: call, output: text };
      default:
        return answer(text, { id: `msg_${i}` });
    }
  });
}

describe('responses request: the same bytes as before', () => {
  it('every item kind and shape, in every prefix and suffix of a mixed history', () => {
    for (let k = 0; k <= MIXED.length; k++) {
      expectSame(request(MIXED.slice(0, k)));
      expectSame(request(MIXED.slice(k)));
    }
  });

  it('P2 histories of 100 and 1,000 items', () => {
    for (const n of [100, 1000]) expectSame(request(benchHistory(n)));
  });

  it('any schema-valid transcript (fast-check, fixed seed)', async () => {
    const items = await itemsArbitrary(12);
    fc.assert(
      fc.property(items, (input) => {
        expectSame(request(input));
      }),
      { numRuns: 2000, seed: 20261201 },
    );
  });
});
