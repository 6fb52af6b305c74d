/**
 * zod schemas of the item vocabulary, for boundaries only (loading a RunState, reading a
 * session, parsing provider output). Unknown fields and unknown item types pass through.
 */
import { z } from 'zod';

const providerData = z.record(z.string(), z.unknown()).optional();

export const contentPartSchema = z.looseObject({ type: z.string() });

export const messageItemSchema = z.looseObject({
  type: z.literal('message'),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), z.array(contentPartSchema)]),
  provider_data: providerData,
});

export const functionCallItemSchema = z.looseObject({
  type: z.literal('function_call'),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
  provider_data: providerData,
});

export const functionCallOutputItemSchema = z.looseObject({
  type: z.literal('function_call_output'),
  call_id: z.string(),
  output: z.union([z.string(), z.array(contentPartSchema)]),
});

export const reasoningItemSchema = z.looseObject({
  type: z.literal('reasoning'),
  summary: z.array(z.looseObject({ type: z.string(), text: z.string() })),
  encrypted_content: z.string().nullable().optional(),
  provider_data: providerData,
});

const knownTypes = new Set(['message', 'function_call', 'function_call_output', 'reasoning']);

/** Any item: known types are checked; other types need only a string `type`. */
export const itemSchema = z.union([
  messageItemSchema,
  functionCallItemSchema,
  functionCallOutputItemSchema,
  reasoningItemSchema,
  z.looseObject({
    type: z.string().refine((t) => !knownTypes.has(t), { message: 'malformed known item' }),
  }),
]);
