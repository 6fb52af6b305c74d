/**
 * One representation for "a schema the user gave": its JSON Schema (for the model) and a
 * validator (for what the model sent back). Accepts any Standard Schema
 * (https://standardschema.dev) that also exposes Standard JSON Schema — zod ≥ 4.2 classic
 * schemas do — a Standard Schema given its JSON Schema with `withJsonSchema` (zod/mini), or a
 * plain JSON Schema object (validated by zod's `z.fromJSONSchema` when zod can be loaded at run
 * time). A program that passes no zod schema neither loads nor bundles zod.
 */
import { UserError } from '../errors/errors.js';
import type { JsonSchema } from '../model/model.js';
import { NotStrictCompatible, toStrictJsonSchema } from './strict-schema.js';

/** A Standard Schema v1 (zod, valibot, arktype, …); `jsonSchema` is Standard JSON Schema. */
export interface StandardSchemaLike<Output = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown): StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly jsonSchema?: { input(options: { target: string }): Record<string, unknown> };
    readonly types?: { readonly input: unknown; readonly output: Output };
  };
}

type StandardResult<O> =
  | { readonly value: O; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>;
      }>;
    };

/** A Standard Schema (e.g. a zod schema) or a JSON Schema object. */
export type SchemaLike = StandardSchemaLike | JsonSchema;

/** The parsed type of a schema (`any` for JSON Schema objects). */
export type InferSchema<P> = P extends {
  readonly '~standard': { readonly types?: { readonly output: infer O } };
}
  ? O
  : any;

export type Validation<T = unknown> = { ok: true; value: T } | { ok: false; message: string };

/** A schema ready for use: what the model sees and how its answers are checked. */
export interface ResolvedSchema<T = unknown> {
  jsonSchema: JsonSchema;
  strict: boolean;
  validate(value: unknown): Validation<T> | Promise<Validation<T>>;
}

/**
 * A Standard Schema with `jsonSchema` as its Standard JSON Schema, for schema libraries that
 * do not produce one themselves, e.g. zod/mini:
 * `parameters: withJsonSchema(Args, z.toJSONSchema(Args))` (import `* as z from 'zod/mini'`).
 * Arguments are validated by `schema`; the model sees `jsonSchema`.
 */
export function withJsonSchema<S extends StandardSchemaLike>(schema: S, jsonSchema: JsonSchema): S {
  const std = schema['~standard'];
  const input = () => jsonSchema;
  return {
    '~standard': {
      ...std,
      validate: (v: unknown) => std.validate(v),
      jsonSchema: { input, output: input },
    },
  } as unknown as S;
}

/** True for Standard Schema objects (zod 4 schemas among them). */
export function isStandardSchema(value: unknown): value is StandardSchemaLike {
  return typeof value === 'object' && value !== null && '~standard' in value;
}

function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNulls);
  if (value && typeof value === 'object') {
    // fromEntries defines own keys: assigning out["__proto__"] would set the prototype instead,
    // smuggling the fields of a `{"__proto__": {...}}` argument past the schema.
    return Object.fromEntries(
      Object.entries(value).flatMap(([k, v]) => (v === null ? [] : [[k, stripNulls(v)]])),
    );
  }
  return value;
}

/** Formats validation issues like zod's `prettifyError`: `✖ message\n  → at path`. */
export function formatIssues(
  issues: ReadonlyArray<{
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>;
  }>,
): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? []).map((p) =>
        String(typeof p === 'object' && p !== null ? p.key : p),
      );
      return `✖ ${issue.message}${path.length ? `\n  → at ${path.join('.')}` : ''}`;
    })
    .join('\n');
}

function settle<T>(result: StandardResult<T>): Validation<T> {
  return result.issues
    ? { ok: false, message: formatIssues(result.issues) }
    : { ok: true, value: result.value as T };
}

/** A validator from a Standard Schema. Strict mode turns optional keys into nullable ones, so
 * the model may send `null` for an optional key: on failure it retries without nulls. */
function standardValidator<T>(
  schema: StandardSchemaLike,
): (value: unknown) => Validation<T> | Promise<Validation<T>> {
  const std = schema['~standard'];
  const check = (value: unknown, retry: boolean): Validation<T> | Promise<Validation<T>> => {
    const result = std.validate(value) as StandardResult<T> | Promise<StandardResult<T>>;
    const decide = (r: StandardResult<T>) =>
      r.issues && retry ? check(stripNulls(value), false) : settle(r);
    return result instanceof Promise ? result.then(decide) : decide(result);
  };
  return (value) => check(value, value !== null && typeof value === 'object');
}

/** Not a literal, so bundlers do not put zod into every program (see {@link jsonSchemaValidator}). */
const ZOD = 'zod';
let zodModule:
  | Promise<{ z: { fromJSONSchema(schema: unknown): StandardSchemaLike } } | undefined>
  | undefined;
function loadZod() {
  zodModule ??= import(/* webpackIgnore: true */ /* @vite-ignore */ ZOD).then(
    (m) => m as { z: { fromJSONSchema(schema: unknown): StandardSchemaLike } },
    () => undefined,
  );
  return zodModule;
}

/**
 * A validator for a JSON Schema object, compiled with zod's `fromJSONSchema` on first use when zod
 * loads at run time (bundlers leave it out); otherwise, or if zod cannot compile it, arguments are
 * only parsed. A Standard Schema (zod, zod/mini via `withJsonSchema`, …) always validates.
 */
function jsonSchemaValidator<T>(schema: JsonSchema): (value: unknown) => Promise<Validation<T>> {
  let compiled:
    | Promise<((value: unknown) => Validation<T> | Promise<Validation<T>>) | undefined>
    | undefined;
  return async (value) => {
    compiled ??= loadZod().then((mod) => {
      try {
        return mod ? standardValidator<T>(mod.z.fromJSONSchema(schema)) : undefined;
      } catch {
        return undefined; // a schema zod cannot compile is sent as is and not checked
      }
    });
    const validate = await compiled;
    return validate ? validate(value) : { ok: true, value: value as T };
  };
}

/**
 * Resolves `schema` for `purpose` (used in error messages). `strict`: `true` requires an
 * OpenAI-strict conversion (throws `UserError` if impossible), `undefined` tries it and falls
 * back to non-strict, `false` sends the schema as is.
 * @throws UserError for a value that is neither a Standard Schema with Standard JSON Schema
 *   nor a JSON Schema object.
 */
export function resolveSchema<T = unknown>(
  schema: SchemaLike,
  purpose: string,
  strict?: boolean,
): ResolvedSchema<T> {
  let jsonSchema: JsonSchema;
  let validate: ResolvedSchema<T>['validate'];
  if (isStandardSchema(schema)) {
    const std = schema['~standard'];
    if (!std.jsonSchema) {
      throw new UserError(
        `${purpose}: this ${std.vendor} schema does not expose Standard JSON Schema. Use a zod ≥ 4.2 classic schema (import { z } from 'zod'), or pass a JSON Schema object.`,
      );
    }
    try {
      jsonSchema = std.jsonSchema.input({ target: 'draft-2020-12' });
    } catch (e) {
      throw new UserError(
        `${purpose}: the schema cannot be converted to JSON Schema (${(e as Error).message}).`,
      );
    }
    validate = standardValidator<T>(schema);
  } else if (schema && typeof schema === 'object') {
    jsonSchema = schema;
    validate = jsonSchemaValidator<T>(schema);
  } else {
    throw new UserError(
      `${purpose}: expected a zod (Standard) schema or a JSON Schema object, got ${typeof schema}.`,
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
