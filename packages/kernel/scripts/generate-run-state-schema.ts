/** Writes `run-state.schema.json` (the published JSON Schema of the RunState format) from the zod schema. */
import { writeFileSync } from 'node:fs';
import { runStateJsonSchema } from '../src/run-state/run-state-json-schema.js';

const target = new URL('../run-state.schema.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(await runStateJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
