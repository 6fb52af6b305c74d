/**
 * The published item schema (`items.schema.json`) against the fixture corpus, with a real
 * JSON Schema validator (Ajv 2020): every item of every fixture validates, every mutated item
 * does not, and the zod schemas the kernel checks with agree with the JSON Schema on each one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import {
  conformanceItems,
  itemSchemaViolations,
  publishedSchemas,
  publishedValidators,
  recordedFixturePath,
  unicodeItems,
} from '@baton/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ITEMS_SCHEMA_ID,
  itemsJsonSchema,
  runStateJsonSchema,
} from '../../scripts/json-schemas.js';
import { createItemSchemas, findItemIssue } from './item-schemas.js';

const schemas = createItemSchemas(z);
const { items: itemsSchema, runState: runStateSchema } = publishedSchemas();
const defs = itemsSchema.$defs as Record<string, { required?: string[]; properties?: object }>;
const defOf = (type: string) =>
  defs[`${type.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase())}Item`];

const fixtureDir = new URL('../run-state/__fixtures__/run-state/', import.meta.url);
const runStateFixtures = readdirSync(fixtureDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ file: f, state: JSON.parse(readFileSync(new URL(f, fixtureDir), 'utf8')) }));

/** Every item a serialized state holds, nested states included. */
function itemsOfState(state: any): unknown[] {
  return [
    ...state.originalInput,
    ...state.generatedItems.map((i: any) => i.raw_item),
    ...state.interruptions.map((i: any) => i.raw_item),
    ...(state.pendingTurn
      ? [
          ...state.pendingTurn.functionCalls,
          ...state.pendingTurn.ignoredHandoffCalls,
          ...(state.pendingTurn.handoffCall ? [state.pendingTurn.handoffCall] : []),
          ...(state.pendingTurn.hostedApprovalRequests ?? []),
        ]
      : []),
    ...state.modelResponses.flatMap((r: any) => r.output ?? []),
    ...(state.pendingSessionWrite?.items ?? []),
    ...(state.modelInputOverride?.items ?? []),
    ...Object.values(state.nestedStates).flatMap(itemsOfState),
  ];
}

/** Output items of every recorded Responses body (the provider keeps them as they are). */
const recordedItems = readdirSync(recordedFixturePath('openai-responses'))
  .filter((f) => f.endsWith('.json'))
  .flatMap((f) => {
    const body = JSON.parse(readFileSync(recordedFixturePath(`openai-responses/${f}`), 'utf8'));
    return (body.output ?? []) as unknown[];
  });

/** Items of the types no recording or fixture above has (Responses API reference shapes). */
const referenceItems: unknown[] = [
  { type: 'image_generation_call', id: 'ig_1', status: 'completed', result: 'iVBORw0KGgo=' },
  {
    type: 'computer_call',
    id: 'cu_1',
    call_id: 'call_cu',
    status: 'completed',
    action: { type: 'click', x: 1, y: 2, button: 'left' },
    pending_safety_checks: [],
  },
  {
    type: 'computer_call_output',
    call_id: 'call_cu',
    output: { type: 'computer_screenshot', image_url: 'data:image/png;base64,AA==' },
  },
  {
    type: 'local_shell_call',
    id: 'ls_1',
    call_id: 'call_ls',
    status: 'completed',
    action: { type: 'exec', command: ['ls', '-la'], env: {} },
  },
  { type: 'local_shell_call_output', id: 'call_ls', output: 'total 0' },
  { type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: true, reason: null },
  { type: 'item_reference', id: 'msg_1' },
  { type: 'custom_tool_call', call_id: 'call_ct', name: 'grammar', input: 'SELECT 1' },
  { type: 'custom_tool_call_output', call_id: 'call_ct', output: '1' },
  {
    type: 'hosted_tool_call',
    id: 'srvtoolu_1',
    name: 'web_search',
    provider_data: { anthropic: { type: 'server_tool_use', input: { query: 'x' } } },
  },
  { type: 'shell_call', call_id: 'call_sh', action: { commands: ['pwd'] } },
];

const corpus: unknown[] = [
  ...runStateFixtures.flatMap(({ state }) => itemsOfState(state)),
  ...conformanceItems(),
  ...unicodeItems(),
  ...recordedItems,
  ...referenceItems,
];

const { item: validItem, runState: validRunState } = publishedValidators();
/** The zod schemas themselves (RunState loading, plugins). */
const zodValid = (value: unknown) => {
  const type = (value as { type?: unknown } | null)?.type;
  const schema =
    typeof type === 'string' && Object.hasOwn(schemas.byType, type)
      ? schemas.byType[type]
      : schemas.item;
  return schema.safeParse(value).success;
};
/** The zod-free check (session reads, provider output). */
const checkValid = (value: unknown) => findItemIssue(value) === undefined;

/** Mutants of a valid item: each required field removed, each known field given a wrong type. */
function mutants(item: Record<string, unknown>): { what: string; value: unknown }[] {
  const def = defOf(item.type as string);
  if (!def) return [];
  const out: { what: string; value: unknown }[] = [];
  for (const key of def.required ?? []) {
    const { [key]: _drop, ...rest } = item;
    out.push({ what: `without ${key}`, value: rest });
  }
  for (const key of Object.keys(def.properties ?? {})) {
    if (key in item) out.push({ what: `${key}: 12345`, value: { ...item, [key]: 12345 } });
  }
  if (Array.isArray(item.content) && item.content.length > 0) {
    const [first, ...others] = item.content as Record<string, unknown>[];
    const part =
      defs[`${String(first.type).replace(/(^|_)([a-z])/g, (_m, _u, c) => c.toUpperCase())}Part`];
    for (const key of part?.required ?? []) {
      if (key === 'type') continue;
      const { [key]: _drop, ...rest } = first;
      out.push({
        what: `content[0] without ${key}`,
        value: { ...item, content: [rest, ...others] },
      });
    }
  }
  return out;
}

describe('items.schema.json', () => {
  it('is the generated schema (regenerate with npm run schema -w @baton/kernel)', async () => {
    expect(itemsSchema).toEqual(await itemsJsonSchema());
    expect(itemsSchema.$id).toBe(ITEMS_SCHEMA_ID);
    expect(itemsSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    for (const type of schemas.knownTypes) expect(defOf(type), type).toBeDefined();
  });

  it('run-state.schema.json refers to it for items instead of repeating them', async () => {
    expect(runStateSchema).toEqual(await runStateJsonSchema());
    const text = JSON.stringify(runStateSchema);
    expect(text).not.toContain('"const":"function_call_output"');
    const refs = [...text.matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]);
    const external = refs.filter((r) => r.startsWith(ITEMS_SCHEMA_ID));
    expect(new Set(external)).toEqual(
      new Set([`${ITEMS_SCHEMA_ID}#/$defs/Item`, `${ITEMS_SCHEMA_ID}#/$defs/FunctionCallItem`]),
    );
    for (const ref of external) expect(defs[ref.split('/').at(-1)!]).toBeDefined();
  });

  it('every item of the fixture corpus validates (Ajv and the kernel zod schemas)', () => {
    const types = new Set(corpus.map((i) => (i as { type: string }).type));
    // The corpus covers every type the vocabulary knows, and one it does not (shell_call).
    for (const type of schemas.knownTypes) expect(types, type).toContain(type);
    expect(corpus.length).toBeGreaterThan(60);
    expect(itemSchemaViolations(corpus)).toEqual([]);
    expect(corpus.filter((i) => !zodValid(i))).toEqual([]);
    expect(corpus.filter((i) => !checkValid(i))).toEqual([]);
  });

  it('every RunState fixture validates against run-state.schema.json (items through the $ref)', () => {
    expect(runStateFixtures.length).toBeGreaterThan(0);
    for (const { file, state } of runStateFixtures)
      expect(validRunState(state), `${file}: ${JSON.stringify(validRunState.errors)}`).toBe(true);
  });

  it('no mutated item validates: the zod schemas and the zod-free check agree with the JSON Schema on each', () => {
    let count = 0;
    for (const item of corpus) {
      for (const { what, value } of mutants(item as Record<string, unknown>)) {
        count++;
        const label = `${(item as { type: string }).type} ${what}`;
        expect(validItem(value), label).toBe(false);
        expect(zodValid(value), label).toBe(false);
        expect(checkValid(value), label).toBe(false);
      }
    }
    expect(count).toBeGreaterThan(300);
  });

  it('a RunState whose item was mutated does not validate', () => {
    const { state } = runStateFixtures[0];
    const bad = structuredClone(state);
    delete bad.generatedItems[1].raw_item.call_id;
    expect(validRunState(bad)).toBe(false);
    const bad2 = structuredClone(state);
    bad2.originalInput[0].content = 42;
    expect(validRunState(bad2)).toBe(false);
  });

  it('unknown item and part types pass; a known type cannot pass as unknown', () => {
    const cases: [unknown, boolean][] = [
      [{ type: 'brand_new_item', anything: [1] }, true],
      [{ type: 'message', role: 'user', content: [{ type: 'input_audio', data: 'AA' }] }, true],
      [{ type: 'function_call' }, false],
      [{ type: 'compaction', id: 'c' }, false],
      [{ type: 'message', role: 'user', content: [{ type: 'input_text' }] }, false],
      [{ type: 'message', role: 'robot', content: 'hi' }, false],
      [{ type: 'reasoning', summary: [{ type: 'summary_text', text: 1 }] }, false],
      [{ type: 42 }, false],
      [{ role: 'user', content: 'no type' }, false],
    ];
    for (const [value, ok] of cases) {
      expect(validItem(value), JSON.stringify(value)).toBe(ok);
      expect(zodValid(value), JSON.stringify(value)).toBe(ok);
      expect(checkValid(value), JSON.stringify(value)).toBe(ok);
    }
  });

  it('the zod-free check agrees with the zod schemas on random deep mutations of the corpus', () => {
    /** Every path to a value inside `v` (object keys and array indexes). */
    const paths = (v: unknown, at: (string | number)[] = []): (string | number)[][] =>
      typeof v === 'object' && v !== null
        ? Object.entries(v).flatMap(([k, x]) => [
            [...at, Array.isArray(v) ? Number(k) : k],
            ...paths(x, [...at, Array.isArray(v) ? Number(k) : k]),
          ])
        : [];
    const json = fc.jsonValue({ maxDepth: 2 });
    fc.assert(
      fc.property(
        fc.constantFrom(...corpus),
        fc.nat(),
        fc.oneof(json, fc.constant(undefined)),
        (item, pick, replacement) => {
          const all = paths(item);
          if (all.length === 0) return;
          const path = all[pick % all.length];
          const value = structuredClone(item) as Record<string | number, unknown>;
          let parent: Record<string | number, unknown> = value;
          for (const key of path.slice(0, -1)) parent = parent[key] as typeof parent;
          const last = path[path.length - 1];
          if (replacement === undefined && !Array.isArray(parent)) delete parent[last];
          else parent[last] = replacement;
          expect(checkValid(value), JSON.stringify(value).slice(0, 300)).toBe(zodValid(value));
        },
      ),
      { numRuns: 3000, seed: 22 },
    );
  });

  it('the function_call fast path of the zod-free check agrees with the zod schemas', () => {
    // `findItemIssue` takes a function_call of string fields without the spec walk: every
    // field given every kind of value, with and without extra keys, must still agree.
    const value = fc.oneof(
      fc.constant(undefined),
      fc.constantFrom('', 'completed', 'in_progress', 'incomplete', 'done', 'call_1'),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const fields = ['call_id', 'name', 'arguments', 'id', 'status', 'provider_data', 'extra'];
    fc.assert(
      fc.property(fc.array(value, { minLength: fields.length, maxLength: fields.length }), (vs) => {
        const call: Record<string, unknown> = { type: 'function_call' };
        fields.forEach((f, i) => {
          if (vs[i] !== undefined) call[f] = vs[i];
        });
        expect(checkValid(call), JSON.stringify(call)).toBe(zodValid(call));
      }),
      { numRuns: 3000, seed: 22 },
    );
    const plain = { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' };
    expect(checkValid(plain)).toBe(true);
    expect(checkValid({ ...plain, status: 'done' })).toBe(false);
    expect(checkValid({ ...plain, arguments: undefined })).toBe(false);
  });
});
