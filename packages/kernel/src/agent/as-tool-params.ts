/** The default arguments of an agent used as a tool: `{ input: string }` (no zod needed). */
import type { ResolvedSchema } from '../tool/schema.js';

export const DEFAULT_AS_TOOL_PARAMETERS = {
  type: 'object',
  properties: { input: { type: 'string', description: 'The input for the agent.' } },
  required: ['input'],
  additionalProperties: false,
} as const;

/** Validates `{ input: string }` without loading a schema library. */
export const validateDefaultAsToolArgs: ResolvedSchema<{ input: string }>['validate'] = (value) =>
  value !== null &&
  typeof value === 'object' &&
  typeof (value as { input?: unknown }).input === 'string'
    ? { ok: true, value: value as { input: string } }
    : { ok: false, message: '✖ expected an object with a string "input"\n  → at input' };
