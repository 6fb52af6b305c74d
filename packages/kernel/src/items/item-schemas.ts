/**
 * The item vocabulary's schemas, written once as specs that give both a zod schema (for RunState
 * loading, plugins and the published `items.schema.json`) and a check that needs no zod
 * (`findItemIssue`: reading a session, provider output), so a program that never loads a
 * RunState does not ship zod. Shapes follow the OpenAI Responses API input items. Every object
 * is loose (unknown fields pass through, as on the wire); a field the vocabulary knows must have
 * its type; an item of a type the vocabulary does not know needs only a string `type`.
 * Source: https://platform.openai.com/docs/api-reference/responses/create (input items).
 */
import type { z as ZodNamespace } from 'zod';
import {
  any,
  arrayOf,
  bool,
  expected,
  isObject,
  list,
  lit,
  loose,
  nul,
  oneOf,
  opt,
  record,
  type Spec,
  spec,
  str,
  type Z,
} from './spec.js';

type ZodType = ZodNamespace.ZodType;
const obj = (type: string, shape: Record<string, Spec>) => loose({ type: lit(type), ...shape });
/** A `type` string of none of the `known` types (such an item or part is kept as is). */
const otherType = (known: readonly string[]) =>
  spec(
    (z) => z.string().refine((t) => !known.includes(t), { message: 'malformed item' }),
    (v) =>
      typeof v !== 'string'
        ? str.check(v)
        : known.includes(v)
          ? { path: [], message: 'malformed item' }
          : undefined,
  );
/** Known members by `type` (each checked by its own spec) or an `other` of an unknown type. */
const byTypeUnion = (members: Record<string, Spec>, other: Spec) =>
  spec(
    (z) => z.union([...Object.values(members).map((s) => s.zod(z)), other.zod(z)]),
    (v) => {
      if (!isObject(v)) return expected('object', v);
      const member = typeof v.type === 'string' && Object.hasOwn(members, v.type);
      return member ? members[v.type as string].check(v) : other.check(v);
    },
  );

/** Content part types the schemas check (others need only a string `type`). */
export const KNOWN_PART_TYPES = [
  'input_text',
  'input_image',
  'input_file',
  'output_text',
  'refusal',
] as const;

const providerData = opt(record(any));
const status = opt(oneOf(['in_progress', 'completed', 'incomplete']));
const optStr = opt(str);
const nullableStr = opt(nul(str));
const parts = {
  input_text: obj('input_text', { text: str }),
  input_image: obj('input_image', { image_url: optStr, file_id: optStr, detail: optStr }),
  input_file: obj('input_file', {
    file_data: optStr,
    file_id: optStr,
    file_url: optStr,
    filename: optStr,
  }),
  output_text: obj('output_text', { text: str, annotations: opt(list), logprobs: opt(list) }),
  refusal: obj('refusal', { refusal: str }),
};
const otherPart = loose({ type: otherType(KNOWN_PART_TYPES) });
const contentPart = byTypeUnion(parts, otherPart);
const parts_ = arrayOf(contentPart);
const content = spec(
  (z) => z.union([z.string(), parts_.zod(z)]),
  (v) => (typeof v === 'string' || !Array.isArray(v) ? str.check(v) : parts_.check(v)),
);
const shared = { id: optStr, status, provider_data: providerData };
/** Hosted-tool and other pass-through items: the fields that pair or identify them. */
const hosted = (type: string, shape: Record<string, Spec> = {}) =>
  obj(type, { id: optStr, status: optStr, provider_data: providerData, ...shape });
const typed = loose({ type: str });
const itemSpecs: Record<string, Spec> = {
  message: obj('message', {
    role: oneOf(['user', 'assistant', 'system', 'developer']),
    content,
    id: optStr,
    status,
    phase: optStr,
    provider_data: providerData,
  }),
  function_call: obj('function_call', { call_id: str, name: str, arguments: str, ...shared }),
  function_call_output: obj('function_call_output', { call_id: str, output: content, ...shared }),
  reasoning: obj('reasoning', {
    summary: arrayOf(loose({ type: lit('summary_text'), text: str })),
    content: opt(arrayOf(loose({ type: lit('reasoning_text'), text: str }))),
    encrypted_content: nullableStr,
    ...shared,
  }),
  web_search_call: hosted('web_search_call', { action: opt(typed) }),
  file_search_call: hosted('file_search_call', {
    queries: opt(arrayOf(str)),
    results: opt(nul(list)),
  }),
  code_interpreter_call: hosted('code_interpreter_call', {
    code: nullableStr,
    container_id: optStr,
    outputs: opt(nul(list)),
  }),
  image_generation_call: hosted('image_generation_call', { result: nullableStr }),
  computer_call: hosted('computer_call', {
    call_id: str,
    action: opt(typed),
    actions: opt(arrayOf(typed)),
    pending_safety_checks: opt(list),
  }),
  computer_call_output: hosted('computer_call_output', {
    call_id: str,
    output: loose({ type: lit('computer_screenshot') }),
    acknowledged_safety_checks: opt(list),
  }),
  local_shell_call: hosted('local_shell_call', {
    call_id: str,
    action: loose({ type: str, command: arrayOf(str) }),
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
    approve: bool,
    reason: nullableStr,
  }),
  compaction: hosted('compaction', { encrypted_content: str }),
  item_reference: hosted('item_reference', { id: str }),
  custom_tool_call: hosted('custom_tool_call', { call_id: str, name: str, input: str }),
  custom_tool_call_output: hosted('custom_tool_call_output', { call_id: str, output: content }),
  hosted_tool_call: hosted('hosted_tool_call', { name: optStr, arguments: optStr }),
};
const knownTypes = Object.keys(itemSpecs);
const otherItem = loose({ type: otherType(knownTypes) });
const item = byTypeUnion(itemSpecs, otherItem);
const { message, function_call, function_call_output, reasoning, ...hostedSpecs } = itemSpecs;
/** Specs of any item and of a function call (for the RunState schema). */
export const itemSpec = item;
export const functionCallSpec = function_call;

/** Builds the item schemas with the given zod namespace (the same instances on every call). */
export function createItemSchemas(z: Z) {
  const zod = <T extends Record<string, Spec>>(specs: T) =>
    Object.fromEntries(Object.entries(specs).map(([k, s]) => [k, s.zod(z)])) as {
      [K in keyof T]: ZodType;
    };
  return {
    providerData: providerData.zod(z),
    contentPart: contentPart.zod(z),
    parts: zod(parts),
    otherPart: otherPart.zod(z) as ZodNamespace.ZodObject<{ type: ZodType }>,
    message: message.zod(z),
    functionCall: function_call.zod(z),
    functionCallOutput: function_call_output.zod(z),
    reasoning: reasoning.zod(z),
    hostedItems: zod(hostedSpecs),
    otherItem: otherItem.zod(z) as ZodNamespace.ZodObject<{ type: ZodType }>,
    item: item.zod(z),
    byType: zod(itemSpecs),
    knownTypes,
  };
}

export type ItemSchemas = ReturnType<typeof createItemSchemas>;

/**
 * How deep an item may nest (objects and arrays, the item itself being level 1). Deeper data is
 * refused where items enter (session rows): JSON.parse reads any depth, but serializing it
 * (`JSON.stringify`, a RunState, a request body) overflows the stack near 5,000 levels.
 */
export const MAX_ITEM_DEPTH = 100;

/**
 * Whether `data` nests objects/arrays deeper than `limit` levels, the root counting as 1. Shared
 * by the item and RunState depth limits. Recursive: the recursion stops at `limit` + 1 levels.
 */
export function nestsDeeper(data: unknown, limit: number, depth = 1): boolean {
  if (depth > limit) return true;
  const value = data as Record<string, unknown>;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const child = value[i];
      if (typeof child === 'object' && child !== null && nestsDeeper(child, limit, depth + 1))
        return true;
    }
  } else
    for (const key in value) {
      const child = value[key];
      if (typeof child === 'object' && child !== null && nestsDeeper(child, limit, depth + 1))
        return true;
    }
  return false;
}

const CALL_FIELDS = new Set(['type', 'call_id', 'name', 'arguments', 'id', 'status']);
/** A `function_call` of string fields only (the common case), checked without the spec walk. */
function isPlainCall(v: Record<string, unknown>): boolean {
  for (const key in v) if (!CALL_FIELDS.has(key) || typeof v[key] !== 'string') return false;
  return 'call_id' in v && 'name' in v && 'arguments' in v && !status.check(v.status);
}

/**
 * Why `value` is not a valid item of the vocabulary, as `<path>: <problem>` in zod's words (e.g.
 * `content: Invalid input: expected string, received undefined`, or `nested deeper than 100
 * levels`: see {@link MAX_ITEM_DEPTH}), or `undefined` when it is one.
 * Needs no zod; `schemas` (from `loadItemSchemas`) is accepted for older callers and not used.
 */
export function findItemIssue(value: unknown): string | undefined;
/** @deprecated The schemas are not needed: call `findItemIssue(value)`. */
export function findItemIssue(schemas: ItemSchemas, value: unknown): string | undefined;
export function findItemIssue(...args: [unknown] | [ItemSchemas, unknown]): string | undefined {
  const value = args.length === 2 ? args[1] : args[0];
  if (!isObject(value)) return 'not an object';
  if (typeof value.type !== 'string') return 'no string "type"';
  if (value.type === 'function_call' && isPlainCall(value)) return undefined;
  if (nestsDeeper(value, MAX_ITEM_DEPTH)) return `nested deeper than ${MAX_ITEM_DEPTH} levels`;
  const issue = item.check(value);
  return issue && `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`;
}

let cached: Promise<ItemSchemas> | undefined;
/** The item schemas as zod schemas (loads zod on first call). */
export function loadItemSchemas(): Promise<ItemSchemas> {
  cached ??= import('zod').then(({ z }) => createItemSchemas(z));
  return cached;
}
