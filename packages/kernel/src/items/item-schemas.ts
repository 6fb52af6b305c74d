/**
 * zod schemas of the item vocabulary, for boundaries only (loading a RunState, reading a
 * session, parsing provider output). Unknown fields and unknown item types pass through.
 * Built on first use (`loadItemSchemas()`), so importing the kernel does not load zod.
 */
import type { z as ZodNamespace } from 'zod';

type Z = typeof ZodNamespace;

/** Builds the item schemas with the given zod namespace. */
export function createItemSchemas(z: Z) {
  const providerData = z.record(z.string(), z.unknown()).optional();
  const contentPart = z.looseObject({ type: z.string() });
  const message = z.looseObject({
    type: z.literal('message'),
    role: z.enum(['user', 'assistant', 'system', 'developer']),
    content: z.union([z.string(), z.array(contentPart)]),
    provider_data: providerData,
  });
  const functionCall = z.looseObject({
    type: z.literal('function_call'),
    call_id: z.string(),
    name: z.string(),
    arguments: z.string(),
    provider_data: providerData,
  });
  const functionCallOutput = z.looseObject({
    type: z.literal('function_call_output'),
    call_id: z.string(),
    output: z.union([z.string(), z.array(contentPart)]),
  });
  const reasoning = z.looseObject({
    type: z.literal('reasoning'),
    summary: z.array(z.looseObject({ type: z.string(), text: z.string() })),
    encrypted_content: z.string().nullable().optional(),
    provider_data: providerData,
  });
  const knownTypes = new Set(['message', 'function_call', 'function_call_output', 'reasoning']);
  /** Any item: known types are checked; other types need only a string `type`. */
  const item = z.union([
    message,
    functionCall,
    functionCallOutput,
    reasoning,
    z.looseObject({
      type: z.string().refine((t) => !knownTypes.has(t), { message: 'malformed known item' }),
    }),
  ]);
  return { contentPart, message, functionCall, functionCallOutput, reasoning, item };
}

export type ItemSchemas = ReturnType<typeof createItemSchemas>;

let cached: Promise<ItemSchemas> | undefined;
/** The item schemas (loads zod on first call). */
export function loadItemSchemas(): Promise<ItemSchemas> {
  cached ??= import('zod').then(({ z }) => createItemSchemas(z));
  return cached;
}
