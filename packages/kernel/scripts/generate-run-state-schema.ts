/**
 * Writes the published JSON Schemas from the zod schemas: `items.schema.json` (the item
 * vocabulary) and `run-state.schema.json` (the RunState format, referring to the items schema).
 */
import { writeFileSync } from 'node:fs';
import { itemsJsonSchema } from '../src/items/items-json-schema.js';
import { runStateJsonSchema } from '../src/run-state/run-state-json-schema.js';

for (const [file, schema] of [
  ['items.schema.json', await itemsJsonSchema()],
  ['run-state.schema.json', await runStateJsonSchema()],
] as const) {
  const target = new URL(`../${file}`, import.meta.url);
  writeFileSync(target, `${JSON.stringify(schema, null, 2)}\n`);
  console.log(`wrote ${target.pathname}`);
}
