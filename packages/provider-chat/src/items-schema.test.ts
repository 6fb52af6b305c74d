/**
 * Every item this provider produces from the recorded traffic (non-streamed bodies and
 * streams, the shared corpus and this package's fixtures) matches the published
 * `@baton/kernel/items.schema.json`, checked with a real JSON Schema validator (Ajv 2020).
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Item, ModelStreamEvent } from '@baton/kernel';
import { itemSchemaViolations, recordedFixturePath } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { convertChatStream } from './chat-stream.js';
import {
  chatFunctionCallItem,
  chatMessageItem,
  chatReasoningItem,
  contentTextOf,
  convertFromChatOutput,
  reasoningTextOf,
} from './convert-from-chat-output.js';

const local = new URL('./__fixtures__/', import.meta.url);
const sources = [
  ...readdirSync(recordedFixturePath('chat-completions')).map((f) => ({
    name: `recorded/${f}`,
    text: () => readFileSync(recordedFixturePath(`chat-completions/${f}`), 'utf8'),
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

/** The items of a body: the whole conversion, or piece by piece when it refuses the body. */
function bodyItems(body: any): Item[] {
  try {
    return convertFromChatOutput(body, 'chat').output;
  } catch {
    const message = body.choices[0].message;
    const reasoning = reasoningTextOf(message);
    const text = chatMessageItem(contentTextOf(message.content), message.refusal, true);
    return [
      ...(reasoning ? [chatReasoningItem(reasoning, 'chat')] : []),
      ...(text ? [text] : []),
      ...(message.tool_calls ?? []).map((c: any, i: number) =>
        chatFunctionCallItem({ id: c.id, ...c.function }, `call_${i}`, 'chat'),
      ),
    ];
  }
}

async function streamItems(events: unknown[]): Promise<Item[]> {
  const items: Item[] = [];
  try {
    const stream = convertChatStream(each(events), { providerId: 'chat' });
    for await (const event of stream as AsyncIterable<ModelStreamEvent>) {
      if (event.type === 'output_item_added' || event.type === 'output_item_done')
        items.push(event.item);
      if (event.type === 'response_done') items.push(...event.response.output);
    }
  } catch {
    // a stream that fails: the items seen are still checked
  }
  return items;
}

describe('items of the Chat Completions provider match items.schema.json', () => {
  let total = 0;
  for (const source of sources) {
    if (!/\.(json|chunks\.txt|sse)$/.test(source.name)) continue;
    it(source.name, async () => {
      const text = source.text();
      let items: Item[];
      if (source.name.endsWith('.json')) {
        const body = JSON.parse(text);
        if (!Array.isArray(body.choices)) {
          expect(body.error).toBeDefined(); // an error body: no items
          return;
        }
        items = bodyItems(body);
      } else items = await streamItems(payloads(source.name, text));
      total += items.length;
      expect(itemSchemaViolations(items)).toEqual([]);
    });
  }
  it('checked the items of the whole corpus', () => expect(total).toBeGreaterThan(20));
});
