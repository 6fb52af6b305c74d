/**
 * Every item this provider produces from the recorded traffic (non-streamed bodies and
 * streams, the shared corpus and this package's fixtures) matches the published
 * `@baton/kernel/items.schema.json`, checked with a real JSON Schema validator (Ajv 2020).
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Item, ModelStreamEvent } from '@baton/kernel';
import { itemSchemaViolations, recordedFixturePath } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { fromResponsesOutputItem } from './convert-from-openai-output.js';
import { toModelStreamEvents } from './openai-stream.js';

const local = new URL('./__fixtures__/', import.meta.url);
const sources = [
  ...readdirSync(recordedFixturePath('openai-responses')).map((f) => ({
    name: `recorded/${f}`,
    text: () => readFileSync(recordedFixturePath(`openai-responses/${f}`), 'utf8'),
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

/** Items of every stream in the file (a file may hold several, each from `response.created`). */
async function streamItems(events: unknown[]): Promise<Item[]> {
  const streams: unknown[][] = [];
  for (const e of events) {
    if ((e as { type: string }).type === 'response.created' || streams.length === 0)
      streams.push([]);
    streams.at(-1)!.push(e);
  }
  const items: Item[] = [];
  for (const stream of streams) {
    try {
      for await (const event of toModelStreamEvents(
        each(stream),
      ) as AsyncIterable<ModelStreamEvent>) {
        if (event.type === 'output_item_added' || event.type === 'output_item_done')
          items.push(event.item);
        if (event.type === 'response_done') items.push(...event.response.output);
      }
    } catch {
      // an error stream: the items seen before the error are still checked
    }
  }
  return items;
}

describe('items of the OpenAI Responses provider match items.schema.json', () => {
  let total = 0;
  for (const source of sources) {
    if (!/\.(json|chunks\.txt|sse)$/.test(source.name)) continue;
    it(source.name, async () => {
      const text = source.text();
      let items: Item[];
      if (source.name.endsWith('.json')) {
        const body = JSON.parse(text);
        if (!Array.isArray(body.output)) {
          expect(body.error).toBeDefined(); // an error body: no items
          return;
        }
        // Item by item (an unusable incomplete response is refused as a whole, not its items).
        items = body.output.map(fromResponsesOutputItem);
      } else items = await streamItems(payloads(source.name, text));
      total += items.length;
      expect(itemSchemaViolations(items)).toEqual([]);
    });
  }
  it('checked the items of the whole corpus', () => expect(total).toBeGreaterThan(100));
});
