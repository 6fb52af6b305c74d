import { createRunStateSchemaV1 } from './run-state-schema.js';

/** The JSON Schema (draft 2020-12) of the serialized RunState, formats "1.0" and "1.1" (loads zod). */
export async function runStateJsonSchema(): Promise<Record<string, unknown>> {
  const { z } = await import('zod');
  return {
    $id: 'https://baton.dev/schemas/run-state/1.1.json',
    title: 'Baton RunState 1.1',
    ...(z.toJSONSchema(createRunStateSchemaV1(z), {
      target: 'draft-2020-12',
      unrepresentable: 'any',
      cycles: 'ref',
    }) as Record<string, unknown>),
  };
}
