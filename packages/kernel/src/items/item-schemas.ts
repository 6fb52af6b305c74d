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
  const byType: Record<string, ZodNamespace.ZodType> = { message, reasoning };
  byType.function_call = functionCall;
  byType.function_call_output = functionCallOutput;
  /** Any item: known types are checked; other types need only a string `type`. */
  const item = z.union([
    message,
    functionCall,
    functionCallOutput,
    reasoning,
    z.looseObject({
      type: z.string().refine((t) => !Object.hasOwn(byType, t), { message: 'malformed item' }),
    }),
  ]);
  return { contentPart, message, functionCall, functionCallOutput, reasoning, item, byType };
}

export type ItemSchemas = ReturnType<typeof createItemSchemas>;

type Issue = { path: PropertyKey[]; message: string; errors?: Issue[][] };

/**
 * How deep an item may nest (objects and arrays, the item itself being level 1). Deeper data is
 * refused where items enter (session rows): JSON.parse reads any depth, but serializing it
 * (`JSON.stringify`, a RunState, a request body) overflows the stack near 5,000 levels.
 */
export const MAX_ITEM_DEPTH = 100;

/** True when `value` nests deeper than `limit` levels (checked without recursion). */
function deeperThan(value: object, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Why `value` is not a valid item of the vocabulary, as `<path>: <problem>` (e.g.
 * `content: Invalid input: expected string, received undefined`, or `nested deeper than 100
 * levels`: see {@link MAX_ITEM_DEPTH}), or `undefined` when it is one.
 */
export function findItemIssue(schemas: ItemSchemas, value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string') return 'no string "type"';
  if (deeperThan(value, MAX_ITEM_DEPTH)) return `nested deeper than ${MAX_ITEM_DEPTH} levels`;
  const schema = Object.hasOwn(schemas.byType, type) ? schemas.byType[type] : schemas.item;
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  let issue = result.error.issues[0] as Issue;
  // A union names no branch: report the branch issue that got deepest.
  while (issue.errors?.length) {
    const inner = issue.errors.flat().sort((a, b) => b.path.length - a.path.length)[0];
    if (!inner) break;
    issue = { ...inner, path: [...issue.path, ...inner.path] };
  }
  return `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`;
}

let cached: Promise<ItemSchemas> | undefined;
/** The item schemas (loads zod on first call). */
export function loadItemSchemas(): Promise<ItemSchemas> {
  cached ??= import('zod').then(({ z }) => createItemSchemas(z));
  return cached;
}
