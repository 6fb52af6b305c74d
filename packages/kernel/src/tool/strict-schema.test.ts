import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { UserError } from '../errors/errors.js';
import { resolveSchema, withJsonSchema } from './schema.js';
import { toStrictJsonSchema, tryStrictJsonSchema } from './strict-schema.js';
import { tool } from './tool.js';

describe('OpenAI-strict schema conversion', () => {
  it('requires every key, makes optional keys nullable, uses anyOf, drops defaults, closes objects', () => {
    const schema = z.object({
      city: z.string(),
      units: z.enum(['c', 'f']).default('c'),
      days: z.number().optional(),
      where: z
        .union([z.object({ lat: z.number(), lon: z.number() }), z.object({ zip: z.string() })])
        .optional(),
      tags: z.array(z.object({ k: z.string(), v: z.string().optional() })),
    });
    const { jsonSchema, strict } = resolveSchema(schema, 'test', true);
    expect(strict).toBe(true);
    expect(jsonSchema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['city', 'units', 'days', 'where', 'tags'],
    });
    const props = jsonSchema.properties as Record<string, any>;
    expect(props.units).toEqual({ type: ['string', 'null'], enum: ['c', 'f', null] });
    expect(props.days).toEqual({ type: ['number', 'null'] });
    expect(props.where.anyOf).toHaveLength(3);
    expect(props.where.anyOf[2]).toEqual({ type: 'null' });
    expect(JSON.stringify(jsonSchema)).not.toMatch(/"oneOf"|"default"|"\$schema"/);
    expect(props.tags.items).toMatchObject({ additionalProperties: false, required: ['k', 'v'] });
  });

  it('converts oneOf to anyOf', () => {
    expect(
      toStrictJsonSchema({
        type: 'object',
        properties: { a: { oneOf: [{ type: 'string' }, { type: 'number' }] } },
        required: ['a'],
      }),
    ).toEqual({
      type: 'object',
      properties: { a: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
      required: ['a'],
      additionalProperties: false,
    });
  });

  it('refuses free-form objects, additionalProperties and allOf; tool() falls back to non-strict unless strict: true', () => {
    expect(
      tryStrictJsonSchema({ type: 'object', properties: { meta: { type: 'object' } } }),
    ).toBeUndefined();
    expect(
      tryStrictJsonSchema({ type: 'object', additionalProperties: { type: 'string' } }),
    ).toBeUndefined();
    expect(
      tryStrictJsonSchema({
        type: 'object',
        properties: { a: { allOf: [{ type: 'string' }, { minLength: 1 }] } },
      }),
    ).toBeUndefined();
    const loose = { type: 'object', properties: { meta: { type: 'object' } } };
    expect(tool({ name: 't', description: '', parameters: loose, execute: () => '' }).strict).toBe(
      false,
    );
    expect(() =>
      tool({ name: 't', description: '', parameters: loose, strict: true, execute: () => '' }),
    ).toThrow(UserError);
  });

  it('accepts null for optional keys (strict mode) and validates JSON Schema parameters too', async () => {
    const t = tool({
      name: 't',
      description: '',
      parameters: z.object({ a: z.string(), b: z.number().optional() }),
      execute: () => '',
    });
    expect(await t.parseArguments('{"a":"x","b":null}')).toEqual({ ok: true, value: { a: 'x' } });
    const j = tool({
      name: 'j',
      description: '',
      parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      execute: () => '',
    });
    expect(await j.parseArguments('{"n":3}')).toEqual({ ok: true, value: { n: 3 } });
    expect((await j.parseArguments('{"n":"3"}')).ok).toBe(false);
    expect((await j.parseArguments('')).ok).toBe(false);
  });

  it('withJsonSchema: a zod/mini schema validates, the model sees the JSON Schema given (strict)', async () => {
    const Args = zm.object({ city: zm.string(), days: zm.optional(zm.number()) });
    const t = tool({
      name: 'weather',
      description: '',
      parameters: withJsonSchema(Args, zm.toJSONSchema(Args)),
      execute: ({ city }) => city,
    });
    expect(t.strict).toBe(true);
    expect(t.parameters).toMatchObject({
      type: 'object',
      required: ['city', 'days'],
      additionalProperties: false,
    });
    expect(await t.parseArguments('{"city":"Oslo","days":null}')).toEqual({
      ok: true,
      value: { city: 'Oslo' },
    });
    const bad = await t.parseArguments('{"city":3}');
    expect(bad.ok).toBe(false);
    expect(bad.ok === false && bad.message).toMatch(/city/);
    // Without its JSON Schema a zod/mini schema is refused at declaration, with the way out.
    expect(() => tool({ name: 'w', description: '', parameters: Args, execute: () => '' })).toThrow(
      /does not expose Standard JSON Schema/,
    );
  });

  it('rejects invalid tool names and options at declaration', () => {
    expect(() => tool({ name: 'has space', description: '', execute: () => '' })).toThrow(
      /invalid name/,
    );
    expect(() => tool({ name: 'x', description: '', timeoutMs: 0, execute: () => '' })).toThrow(
      /timeoutMs/,
    );
    expect(() => tool({ name: 'x', description: '' } as any)).toThrow(/execute must be a function/);
  });
});
