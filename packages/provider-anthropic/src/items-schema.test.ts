/**
 * Every item this provider produces from the recorded traffic (non-streamed bodies and
 * streams, the shared corpus and this package's fixtures) matches the published
 * `@baton/kernel/items.schema.json`, checked with a real JSON Schema validator (Ajv 2020).
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Item, ModelStreamEvent } from '@baton/kernel';
import { itemSchemaViolations, recordedFixturePath } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { anthropicStreamEvents } from './anthropic-stream.js';
import {
  type AnthropicMessageLike,
  blockToItem,
  convertFromAnthropicOutput,
  textBlocksToMessage,
} from './convert-from-anthropic-output.js';

const local = new URL('./__fixtures__/', import.meta.url);
const sources = [
  ...readdirSync(recordedFixturePath('anthropic-messages')).map((f) => ({
    name: `recorded/${f}`,
    text: () => readFileSync(recordedFixturePath(`anthropic-messages/${f}`), 'utf8'),
  })),
  ...readdirSync(local).map((f) => ({
    name: `local/${f}`,
    text: () => readFileSync(new URL(f, local), 'utf8'),
  })),
];

/** The `data:` payloads of a `.chunks.txt` (one per line) or raw `.sse` file. */
function payloads(name: string, text: string): unknown[] {
  const lines = name.endsWith('.sse')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
    : text.split('\n');
  return lines.filter((l) => l.trim() !== '' && l !== '[DONE]').map((l) => JSON.parse(l));
}

async function* each(values: unknown[]) {
  yield* values;
}

/** The items of a body: the whole conversion, or block by block when it refuses the body. */
function bodyItems(body: AnthropicMessageLike): Item[] {
  try {
    return convertFromAnthropicOutput(body).output;
  } catch {
    return body.content.map((b) => (b.type === 'text' ? textBlocksToMessage([b]) : blockToItem(b)));
  }
}

async function streamItems(events: unknown[]): Promise<Item[]> {
  const items: Item[] = [];
  try {
    for await (const event of anthropicStreamEvents(
      each(events),
    ) as AsyncIterable<ModelStreamEvent>)
      if (event.type === 'output_item_added' || event.type === 'output_item_done')
        items.push(event.item);
  } catch {
    // a stream that fails (overloaded, cut in a tool call): the items seen are still checked
  }
  return items;
}

describe('items of the Anthropic provider match items.schema.json', () => {
  let total = 0;
  for (const source of sources) {
    if (!/\.(json|chunks\.txt|sse)$/.test(source.name)) continue;
    it(source.name, async () => {
      const text = source.text();
      let items: Item[];
      if (source.name.endsWith('.json')) {
        const body = JSON.parse(text);
        if (body.type === 'error') {
          expect(body.error).toBeDefined(); // an error body: no items
          return;
        }
        items = bodyItems(body);
      } else items = await streamItems(payloads(source.name, text));
      total += items.length;
      expect(itemSchemaViolations(items)).toEqual([]);
    });
  }
  it('checked the items of the whole corpus', () => expect(total).toBeGreaterThan(40));
});
