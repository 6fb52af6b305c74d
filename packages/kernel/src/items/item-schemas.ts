/**
 * zod schemas of the item vocabulary, for boundaries only (loading a RunState, reading a
 * session, parsing provider output) and for the published `items.schema.json`. Shapes follow
 * the OpenAI Responses API input items. Every object is loose (unknown fields pass through, as
 * on the wire); a field the vocabulary knows must have its type; an item of a type the
 * vocabulary does not know needs only a string `type`. Built on first use
 * (`loadItemSchemas()`), so importing the kernel does not load zod.
 * Source: https://platform.openai.com/docs/api-reference/responses/create (input items).
 */
import type { z as ZodNamespace } from 'zod';

type Z = typeof ZodNamespace;

/** Content part types the schemas check (others need only a string `type`). */
export const KNOWN_PART_TYPES = [
  'input_text',
  'input_image',
  'input_file',
  'output_text',
  'refusal',
] as const;

/** Builds the item schemas with the given zod namespace. */
export function createItemSchemas(z: Z) {
  const providerData = z.record(z.string(), z.unknown()).optional();
  const status = z.enum(['in_progress', 'completed', 'incomplete']).optional();
  const str = z.string();
  const optStr = z.string().optional();
  const nullableStr = z.string().nullable().optional();
  const list = z.array(z.unknown());
  const obj = (type: string, shape: Record<string, ZodNamespace.ZodType>) =>
    z.looseObject({ type: z.literal(type), ...shape });
  /** Item of a type named in `known`? Then it must match its own schema (refined out here). */
  const otherType = (known: readonly string[]) =>
    z.string().refine((t) => !known.includes(t), { message: 'malformed item' });

  const parts = {
    input_text: obj('input_text', { text: str }),
    input_image: obj('input_image', { image_url: optStr, file_id: optStr, detail: optStr }),
    input_file: obj('input_file', {
      file_data: optStr,
      file_id: optStr,
      file_url: optStr,
      filename: optStr,
    }),
    output_text: obj('output_text', {
      text: str,
      annotations: list.optional(),
      logprobs: list.optional(),
    }),
    refusal: obj('refusal', { refusal: str }),
  };
  const otherPart = z.looseObject({ type: otherType(KNOWN_PART_TYPES) });
  const contentPart = z.union([...Object.values(parts), otherPart]);
  const content = z.union([str, z.array(contentPart)]);

  const message = obj('message', {
    role: z.enum(['user', 'assistant', 'system', 'developer']),
    content,
    id: optStr,
    status,
    phase: optStr,
    provider_data: providerData,
  });
  const functionCall = obj('function_call', {
    call_id: str,
    name: str,
    arguments: str,
    id: optStr,
    status,
    provider_data: providerData,
  });
  const functionCallOutput = obj('function_call_output', {
    call_id: str,
    output: content,
    id: optStr,
    status,
    provider_data: providerData,
  });
  const reasoning = obj('reasoning', {
    summary: z.array(z.looseObject({ type: z.literal('summary_text'), text: str })),
    content: z.array(z.looseObject({ type: z.literal('reasoning_text'), text: str })).optional(),
    encrypted_content: nullableStr,
    id: optStr,
    status,
    provider_data: providerData,
  });
  /** Hosted-tool and other pass-through items: the fields that pair or identify them. */
  const hosted = (type: string, shape: Record<string, ZodNamespace.ZodType> = {}) =>
    obj(type, { id: optStr, status: optStr, provider_data: providerData, ...shape });
  const hostedItems = {
    web_search_call: hosted('web_search_call', { action: z.looseObject({ type: str }).optional() }),
    file_search_call: hosted('file_search_call', {
      queries: z.array(str).optional(),
      results: list.nullable().optional(),
    }),
    code_interpreter_call: hosted('code_interpreter_call', {
      code: nullableStr,
      container_id: optStr,
      outputs: list.nullable().optional(),
    }),
    image_generation_call: hosted('image_generation_call', { result: nullableStr }),
    computer_call: hosted('computer_call', {
      call_id: str,
      action: z.looseObject({ type: str }).optional(),
      actions: z.array(z.looseObject({ type: str })).optional(),
      pending_safety_checks: list.optional(),
    }),
    computer_call_output: hosted('computer_call_output', {
      call_id: str,
      output: z.looseObject({ type: z.literal('computer_screenshot') }),
      acknowledged_safety_checks: list.optional(),
    }),
    local_shell_call: hosted('local_shell_call', {
      call_id: str,
      action: z.looseObject({ type: str, command: z.array(str) }),
    }),
    local_shell_call_output: hosted('local_shell_call_output', { output: str }),
    mcp_call: hosted('mcp_call', {
      server_label: str,
      name: str,
      arguments: str,
      output: nullableStr,
      approval_request_id: nullableStr,
    }),
    mcp_list_tools: hosted('mcp_list_tools', { server_label: str, tools: list }),
    mcp_approval_request: hosted('mcp_approval_request', {
      server_label: str,
      name: str,
      arguments: str,
    }),
    mcp_approval_response: hosted('mcp_approval_response', {
      approval_request_id: str,
      approve: z.boolean(),
      reason: nullableStr,
    }),
    compaction: hosted('compaction', { encrypted_content: str }),
    item_reference: hosted('item_reference', { id: str }),
    custom_tool_call: hosted('custom_tool_call', { call_id: str, name: str, input: str }),
    custom_tool_call_output: hosted('custom_tool_call_output', { call_id: str, output: content }),
    hosted_tool_call: hosted('hosted_tool_call', { name: optStr, arguments: optStr }),
  };
  const byType: Record<string, ZodNamespace.ZodType> = {
    message,
    function_call: functionCall,
    function_call_output: functionCallOutput,
    reasoning,
    ...hostedItems,
  };
  const knownTypes = Object.keys(byType);
  /** An item whose type the vocabulary does not know: only a string `type`. */
  const otherItem = z.looseObject({ type: otherType(knownTypes) });
  /** Any item: known types are checked; other types need only a string `type`. */
  const item = z.union([...Object.values(byType), otherItem]);
  return {
    providerData,
    contentPart,
    parts,
    otherPart,
    message,
    functionCall,
    functionCallOutput,
    reasoning,
    hostedItems,
    otherItem,
    item,
    byType,
    knownTypes,
  };
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
