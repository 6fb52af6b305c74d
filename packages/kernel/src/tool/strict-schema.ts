/**
 * Conversion of a JSON Schema to the OpenAI "strict" subset (Structured Outputs): every object
 * lists all its keys in `required` with `additionalProperties: false`, optional keys become
 * nullable, `oneOf` becomes `anyOf`, `default` and `$schema` are dropped.
 * Source: https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
 */
import type { JsonSchema } from '../model/model.js';

/** Raised internally when a schema cannot be made strict; `reason` says why. */
export class NotStrictCompatible extends Error {}

const UNSUPPORTED =
  'allOf not if then else patternProperties dependentSchemas unevaluatedProperties'.split(' ');

function nullable(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  if (typeof type === 'string')
    return type === 'null'
      ? schema
      : {
          ...schema,
          type: [type, 'null'],
          ...(Array.isArray(schema.enum) ? { enum: [...(schema.enum as unknown[]), null] } : {}),
        };
  if (Array.isArray(type))
    return type.includes('null') ? schema : { ...schema, type: [...type, 'null'] };
  if (Array.isArray(schema.anyOf)) {
    const variants = schema.anyOf as JsonSchema[];
    return variants.some((v) => v.type === 'null')
      ? schema
      : { ...schema, anyOf: [...variants, { type: 'null' }] };
  }
  return { anyOf: [schema, { type: 'null' }] };
}

function convert(schema: unknown, path: string): JsonSchema {
  if (schema === true || schema === undefined)
    throw new NotStrictCompatible(`${path} accepts any value`);
  if (schema === false || typeof schema !== 'object' || schema === null)
    throw new NotStrictCompatible(`${path} is not a schema`);
  const s = schema as JsonSchema;
  for (const key of UNSUPPORTED) {
    if (!(key in s) || (key === 'allOf' && Array.isArray(s.allOf) && s.allOf.length === 1))
      continue;
    throw new NotStrictCompatible(`${path} uses "${key}"`);
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(s)) {
    if (key === 'default' || key === '$schema' || key === 'oneOf' || key === 'allOf') continue;
    out[key] = value;
  }
  if (Array.isArray(s.allOf)) return convert({ ...out, ...(s.allOf[0] as object) }, path);
  if (Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) {
    const variants = [...((s.anyOf as unknown[]) ?? []), ...((s.oneOf as unknown[]) ?? [])];
    out.anyOf = variants.map((v, i) => convert(v, `${path}.anyOf[${i}]`));
  }
  for (const defsKey of ['$defs', 'definitions']) {
    const defs = s[defsKey] as Record<string, unknown> | undefined;
    if (defs)
      out[defsKey] = Object.fromEntries(
        Object.entries(defs).map(([k, v]) => [k, convert(v, `${path}.${defsKey}.${k}`)]),
      );
  }
  const isObject =
    s.type === 'object' ||
    (Array.isArray(s.type) && s.type.includes('object')) ||
    'properties' in s;
  if (isObject) {
    const props = (s.properties ?? {}) as Record<string, unknown>;
    const ap = s.additionalProperties;
    if (ap !== undefined && ap !== false)
      throw new NotStrictCompatible(`${path} allows additional properties`);
    if (
      Object.keys(props).length === 0 &&
      ap !== false &&
      s.type === 'object' &&
      !('properties' in s)
    ) {
      throw new NotStrictCompatible(`${path} is a free-form object`);
    }
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const newProps: Record<string, JsonSchema> = {};
    for (const [key, value] of Object.entries(props)) {
      const converted = convert(value, `${path}.${key}`);
      newProps[key] = required.has(key) ? converted : nullable(converted);
    }
    out.type = s.type ?? 'object';
    out.properties = newProps;
    out.required = Object.keys(props);
    out.additionalProperties = false;
  }
  if (s.items !== undefined) {
    if (Array.isArray(s.items)) throw new NotStrictCompatible(`${path} uses tuple items`);
    out.items = convert(s.items, `${path}[]`);
  }
  if (Array.isArray(s.prefixItems)) throw new NotStrictCompatible(`${path} uses prefixItems`);
  return out;
}

/**
 * Converts `schema` to the OpenAI-strict subset. Throws {@link NotStrictCompatible} (with the
 * JSON path and reason) when that is impossible: free-form objects, `additionalProperties`
 * other than false, `allOf`/`not`/`if`, tuples. The root must be an object schema.
 */
export function toStrictJsonSchema(schema: JsonSchema): JsonSchema {
  const isObject = schema.type === 'object' || 'properties' in schema;
  if (!isObject) throw new NotStrictCompatible('$ is not an object schema');
  return convert(schema, '$');
}

/** `toStrictJsonSchema` or `undefined` when the schema cannot be made strict. */
export function tryStrictJsonSchema(schema: JsonSchema): JsonSchema | undefined {
  try {
    return toStrictJsonSchema(schema);
  } catch (e) {
    if (e instanceof NotStrictCompatible) return undefined;
    throw e;
  }
}
