/**
 * One representation for "a zod schema or a JSON Schema": its JSON Schema (for the model) and
 * a validator (for what the model sent back). zod does the work both ways (zod 4
 * `z.toJSONSchema` / `z.fromJSONSchema`).
 */
import { z } from 'zod';
import { UserError } from '../errors/errors.js';
import type { JsonSchema } from '../model/model.js';
import { NotStrictCompatible, toStrictJsonSchema } from './strict-schema.js';

/** A zod schema or a JSON Schema object. */
export type SchemaLike = z.ZodType | JsonSchema;

export type Validation<T = unknown> = { ok: true; value: T } | { ok: false; message: string };

/** A schema ready for use: what the model sees and how its answers are checked. */
export interface ResolvedSchema<T = unknown> {
  jsonSchema: JsonSchema;
  strict: boolean;
  validate(value: unknown): Validation<T>;
}

/** True for zod 4 schemas (they carry `_zod`). */
export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNulls);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = stripNulls(v);
    return out;
  }
  return value;
}

function zodValidator<T>(schema: z.ZodType): (value: unknown) => Validation<T> {
  return (value) => {
    let result = schema.safeParse(value);
    // Strict mode turns optional keys into nullable ones: the model may send null for an
    // optional key. Retry without nulls before reporting an error.
    if (!result.success && value && typeof value === 'object') {
      const retry = schema.safeParse(stripNulls(value));
      if (retry.success) result = retry;
    }
    if (result.success) return { ok: true, value: result.data as T };
    return { ok: false, message: z.prettifyError(result.error) };
  };
}

/**
 * Resolves `schema` for `purpose` (used in error messages). `strict`: `true` requires an
 * OpenAI-strict conversion (throws `UserError` if impossible), `undefined` tries it and falls
 * back to non-strict, `false` sends the schema as is.
 */
export function resolveSchema<T = unknown>(
  schema: SchemaLike,
  purpose: string,
  strict?: boolean,
): ResolvedSchema<T> {
  let jsonSchema: JsonSchema;
  let validate: (value: unknown) => Validation<T>;
  if (isZodSchema(schema)) {
    try {
      jsonSchema = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    } catch (e) {
      throw new UserError(
        `${purpose}: the zod schema cannot be converted to JSON Schema (${(e as Error).message}).`,
      );
    }
    validate = zodValidator<T>(schema);
  } else if (schema && typeof schema === 'object') {
    jsonSchema = schema;
    let compiled: z.ZodType | undefined;
    try {
      compiled = z.fromJSONSchema(schema as any);
    } catch {
      compiled = undefined;
    }
    validate = compiled ? zodValidator<T>(compiled) : (value) => ({ ok: true, value: value as T });
  } else {
    throw new UserError(
      `${purpose}: expected a zod schema or a JSON Schema object, got ${typeof schema}.`,
    );
  }
  const { $schema: _ignored, ...clean } = jsonSchema;
  jsonSchema = clean;
  if (strict === false) return { jsonSchema, strict: false, validate };
  try {
    return { jsonSchema: toStrictJsonSchema(jsonSchema), strict: true, validate };
  } catch (e) {
    if (!(e instanceof NotStrictCompatible)) throw e;
    if (strict === true) {
      throw new UserError(
        `${purpose}: the schema cannot be made strict (${e.message}). Pass strict: false or change the schema.`,
      );
    }
    return { jsonSchema, strict: false, validate };
  }
}
