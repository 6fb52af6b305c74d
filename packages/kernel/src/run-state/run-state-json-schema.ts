import { createItemSchemas } from '../items/item-schemas.js';
import { itemRefs } from '../items/items-json-schema.js';
import { createRunStateSchemaV1 } from './run-state-schema.js';

/**
 * The JSON Schema (draft 2020-12) of the serialized RunState, formats "1.0" and "1.1" (loads zod). Items
 * are `$ref`s to `items.schema.json` (`$id` `https://baton.dev/schemas/items/1.0.json`): give a
 * validator both schemas.
 */
export async function runStateJsonSchema(): Promise<Record<string, unknown>> {
  const { z } = await import('zod');
  const items = createItemSchemas(z);
  return {
    $id: 'https://baton.dev/schemas/run-state/1.1.json',
    title: 'Baton RunState 1.1',
    ...(z.toJSONSchema(createRunStateSchemaV1(z, items), {
      target: 'draft-2020-12',
      unrepresentable: 'any',
      cycles: 'ref',
      override: itemRefs(items) as never,
    }) as Record<string, unknown>),
  };
}
