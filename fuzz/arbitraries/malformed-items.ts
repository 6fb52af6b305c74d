/**
 * Transcripts with one item broken the way a hand-built input or an edited RunState JSON breaks
 * it, past what the TypeScript types allow: `null` / number / object content, a `null` part,
 * a non-array tool output, a `null` item. For the request converters' bad-input tests: they must
 * throw a named Baton error (or send something valid), never a raw TypeError.
 */
import type { Item } from '@baton/kernel';
import fc from 'fast-check';
import { itemsArbitrary } from './items.js';

type Corruption = (item: Record<string, unknown>) => unknown;

/** Ways to break one item (each returns the broken item, or another value in its place). */
export const corruptions: Record<string, Corruption> = {
  'null item': () => null,
  'null content': (i) => ({ ...i, content: null }),
  'number content': (i) => ({ ...i, content: 7 }),
  'object content': (i) => ({ ...i, content: { text: 'x' } }),
  'null part': (i) => ({ ...i, content: [{ type: 'input_text', text: 'a' }, null] }),
  'number part': (i) => ({ ...i, content: [3] }),
  'null output': (i) => ({ ...i, output: null }),
  'number output': (i) => ({ ...i, output: 7 }),
  'object output': (i) => ({ ...i, output: { a: 1 } }),
  'null output part': (i) => ({ ...i, output: [null] }),
  'null summary part': (i) => ({ ...i, summary: [null] }),
};

/** A valid transcript, one of its items broken, and the index of that item. */
export async function malformedItemsArbitrary(): Promise<
  fc.Arbitrary<{ items: Item[]; index: number; how: string }>
> {
  const valid = await itemsArbitrary(8);
  const messageOrOutput = fc.constantFrom<Record<string, unknown>>(
    { type: 'message', role: 'user', content: 'hi' },
    { type: 'message', role: 'assistant', content: 'hi' },
    { type: 'message', role: 'system', content: 'hi' },
    { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
    { type: 'function_call_output', call_id: 'c1', output: 'ok' },
    { type: 'reasoning', summary: [] },
  );
  return fc
    .tuple(valid, messageOrOutput, fc.nat(), fc.constantFrom(...Object.keys(corruptions)))
    .map(([items, base, at, how]) => {
      const index = items.length === 0 ? 0 : at % (items.length + 1);
      const broken = corruptions[how]!(base) as Item;
      return { items: [...items.slice(0, index), broken, ...items.slice(index)], index, how };
    });
}

/**
 * One broken item per corruption and item kind it applies to (content ones on user, assistant
 * and system messages, output ones on a `function_call_output`), labelled.
 */
export function malformedCases(): { label: string; how: string; role: string; item: Item }[] {
  const bases: Record<string, unknown>[] = ['user', 'assistant', 'system'].map((role) => ({
    type: 'message',
    role,
    content: 'hi',
  }));
  const output: Record<string, unknown> = {
    type: 'function_call_output',
    call_id: 'c1',
    output: 'ok',
  };
  return Object.entries(corruptions).flatMap(([how, corrupt]) =>
    (how.includes('output') ? [output] : how.includes('summary') ? [] : bases).map((base) => {
      const role = (base.role ?? base.type) as string;
      return { label: `${how} in a ${role} item`, how, role, item: corrupt(base) as Item };
    }),
  );
}
