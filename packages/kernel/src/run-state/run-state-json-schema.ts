import { z } from 'zod';
import { runStateSchemaV1 } from './run-state-schema.js';

/** The JSON Schema (draft 2020-12) of the serialized RunState, format "1.0". */
export function runStateJsonSchema(): Record<string, unknown> {
  return {
    $id: 'https://baton.dev/schemas/run-state/1.0.json',
    title: 'Baton RunState 1.0',
    ...(z.toJSONSchema(runStateSchemaV1, {
      target: 'draft-2020-12',
      unrepresentable: 'any',
      cycles: 'ref',
    }) as Record<string, unknown>),
  };
}
