import { describe, expect, it } from 'vitest';
import {
  dropOrphanCalls,
  extractRefusal,
  extractText,
  toInputItem,
  trimToCleanStart,
} from './item-helpers.js';
import type { Item } from './item-types.js';

const call = (id: string): Item => ({
  type: 'function_call',
  call_id: id,
  name: 't',
  arguments: '{}',
});
const out = (id: string): Item => ({ type: 'function_call_output', call_id: id, output: 'o' });
const think: Item = { type: 'reasoning', summary: [{ type: 'summary_text', text: 'hmm' }] };

describe('item helpers', () => {
  it('dropOrphanCalls removes unpaired calls (with the reasoning before them) and unpaired outputs', () => {
    expect(dropOrphanCalls([out('a'), think, call('b'), call('c'), out('c')])).toEqual([
      call('c'),
      out('c'),
    ]);
    expect(dropOrphanCalls([think, call('c'), out('c')])).toEqual([think, call('c'), out('c')]);
  });
  it('trimToCleanStart drops leading outputs of calls outside the window', () => {
    expect(trimToCleanStart([out('a'), { type: 'message', role: 'user', content: 'x' }])).toEqual([
      { type: 'message', role: 'user', content: 'x' },
    ]);
  });
  it('extracts text and refusals; toInputItem drops status only', () => {
    const m: Item = {
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [
        { type: 'output_text', text: 'a' },
        { type: 'refusal', refusal: 'no' },
        { type: 'output_text', text: 'b' },
      ],
    };
    expect(extractText(m as any)).toBe('ab');
    expect(extractRefusal(m as any)).toBe('no');
    expect(toInputItem(m)).toEqual({
      type: 'message',
      role: 'assistant',
      content: (m as any).content,
    });
  });
});
