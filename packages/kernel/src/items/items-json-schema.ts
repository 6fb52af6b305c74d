/**
 * The published JSON Schemas (draft 2020-12): `items.schema.json` (every item type of the
 * vocabulary, one `$defs` entry each) is generated from the zod item schemas; the RunState
 * schema refers to it by `$id` instead of repeating it. Regenerate both files with
 * `npm run schema -w @baton/kernel`.
 */
import { createItemSchemas, type ItemSchemas, KNOWN_PART_TYPES } from './item-schemas.js';

/** `$id` of `items.schema.json`; other schemas refer to `${ITEMS_SCHEMA_ID}#/$defs/<Name>`. */
export const ITEMS_SCHEMA_ID = 'https://baton.dev/schemas/items/1.0.json';

const pascal = (type: string) =>
  type.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase());

/** `$defs` name and description of each item schema. */
function names(s: ItemSchemas): [unknown, string, string][] {
  const out: [unknown, string, string][] = [
    [s.item, 'Item', 'Any transcript item: a known type must match its own schema.'],
    [s.otherItem, 'OtherItem', 'An item of a type this vocabulary does not know (kept as is).'],
    [s.contentPart, 'ContentPart', 'A content part of a message or a tool output.'],
    [s.otherPart, 'OtherPart', 'A content part of a type this vocabulary does not know.'],
    [s.providerData, 'ProviderData', 'Provider-specific data, keyed by provider id.'],
  ];
  for (const [type, schema] of Object.entries(s.byType))
    out.push([schema, `${pascal(type)}Item`, `A \`${type}\` item (Responses API shape).`]);
  for (const [type, schema] of Object.entries(s.parts))
    out.push([schema, `${pascal(type)}Part`, `An \`${type}\` content part.`]);
  return out;
}

/** The JSON Schema of one transcript item, with a `$defs` entry per item type (loads zod). */
export async function itemsJsonSchema(): Promise<Record<string, unknown>> {
  const { z } = await import('zod');
  const s = createItemSchemas(z);
  const registry = z.registry<Record<string, unknown>>();
  for (const [schema, id, description] of names(s))
    registry.add(schema as never, { id, description });
  registry.add(s.otherItem.shape.type as never, { not: { enum: s.knownTypes } });
  registry.add(s.otherPart.shape.type as never, { not: { enum: [...KNOWN_PART_TYPES] } });
  return {
    $id: ITEMS_SCHEMA_ID,
    title: 'Baton items 1.0',
    description:
      'One transcript item of Baton (OpenAI Responses API input item shape, snake_case). Unknown fields are allowed; `provider_data` holds provider-specific data by provider id.',
    ...(z.toJSONSchema(s.item, {
      target: 'draft-2020-12',
      metadata: registry,
      unrepresentable: 'any',
    }) as Record<string, unknown>),
  };
}

/** A `toJSONSchema` override that writes the item schemas as `$ref`s to `items.schema.json`. */
export function itemRefs(s: ItemSchemas) {
  const refs = new Map<unknown, string>([
    [s.item, 'Item'],
    [s.functionCall, 'FunctionCallItem'],
  ]);
  return (ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }) => {
    const name = refs.get(ctx.zodSchema);
    if (name === undefined) return;
    for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
    ctx.jsonSchema.$ref = `${ITEMS_SCHEMA_ID}#/$defs/${name}`;
  };
}
