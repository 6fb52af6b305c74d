/**
 * Session transcripts to mutate: realistic item lists (user and assistant messages, function
 * calls with outputs, reasoning, a hosted item, content parts of every kind), and an item-level
 * arbitrary for rows and entries.
 */
import type { Item } from '@baton/kernel';
import { fc as call, fco, msg, reasoning } from '@baton/testing';
import fc from 'fast-check';
import { applyTreeEdits, hostileValue, toJsonText, treeEdit } from './json-tree.js';

/** A few conversations as a session stores them. */
export const transcriptSeeds: readonly Item[][] = [
  [msg('hi', 'user'), msg('hello')],
  [
    msg('My mug arrived broken, order #42', 'user'),
    reasoning('look the order up', { encrypted_content: 'gAAA', id: 'rs_1' }),
    call('lookup_order', { orderId: '#42' }, 'c1'),
    fco('c1', '{"status":"damaged"}'),
    call('issue_refund', { orderId: '#42' }, 'c2'),
    fco('c2', 'refunded'),
    msg('Refunded.'),
  ],
  [
    {
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: 'what is this?' },
        { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
        { type: 'input_file', file_data: 'data:text/plain;base64,aGk=', filename: 'a.txt' },
      ],
    } as Item,
    { type: 'web_search_call', id: 'ws_1', status: 'completed' } as unknown as Item,
    {
      type: 'message',
      role: 'assistant',
      content: [
        { type: 'output_text', text: 'a cat', annotations: [] },
        { type: 'refusal', refusal: 'no more' },
      ],
      status: 'completed',
    } as Item,
    msg('system says', 'system'),
    msg('developer says', 'developer'),
  ],
  [call('orphan', {}, 'o1'), fco('o2', 'lonely'), msg('after', 'user')],
];

/** A transcript: one of the seeds with 0–4 edits anywhere in it. */
export const mutatedTranscript: fc.Arbitrary<unknown> = fc
  .record({
    seed: fc.nat({ max: transcriptSeeds.length - 1 }),
    edits: fc.array(treeEdit, { maxLength: 4 }),
  })
  .map(({ seed, edits }) => JSON.parse(toJsonText(applyTreeEdits(transcriptSeeds[seed], edits))));

/** One stored item's JSON text: a seed item mutated, any JSON value, or not JSON at all. */
export const storedItemText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({
        item: fc.constantFrom(...transcriptSeeds.flat()),
        edits: fc.array(treeEdit, { maxLength: 3 }),
      })
      .map(({ item, edits }) => toJsonText(applyTreeEdits(item, edits))),
  },
  { weight: 1, arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? 'null') },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  {
    weight: 1,
    arbitrary: fc
      .record({ item: fc.constantFrom(...transcriptSeeds.flat()), at: fc.nat() })
      .map(({ item, at }) => {
        const text = JSON.stringify(item);
        return text.slice(0, at % text.length);
      }),
  },
);
