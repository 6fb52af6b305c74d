/**
 * Mutations of recorded provider traffic: event lists (the payloads a vendor SDK yields after
 * parsing SSE), whole JSON bodies, and SSE text. Each mutation is data (so fast-check can shrink
 * it) applied deterministically; results go through `JSON.parse(JSON.stringify(…))`, so keys such
 * as `"__proto__"` end up as own properties exactly as a JSON parser makes them.
 */
import fc from 'fast-check';
import { nasty } from './items.js';

type Json = unknown;

/** One edit of an event list. Indexes are taken modulo the list length. */
export type EventMutation =
  | { op: 'drop'; at: number }
  | { op: 'duplicate'; at: number }
  | { op: 'swap'; at: number }
  | { op: 'truncate'; at: number }
  | { op: 'replace'; at: number; value: Json }
  | { op: 'set'; at: number; path: number[]; key: string | undefined; value: Json }
  | { op: 'delete'; at: number; path: number[] }
  | { op: 'retype'; at: number; from: number };

const at = fc.nat({ max: 10_000 });
const path = fc.array(fc.nat({ max: 50 }), { maxLength: 4 });
const hostileKey = fc.option(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'index',
    'output_index',
    'content_index',
    'id',
    'type',
    'item_id',
    'delta',
  ),
  { nil: undefined },
);

/** Edits of an event list (0–4 of them). */
export const eventMutations: fc.Arbitrary<EventMutation[]> = fc.array(
  fc.oneof(
    fc.record({ op: fc.constant('drop' as const), at }),
    fc.record({ op: fc.constant('duplicate' as const), at }),
    fc.record({ op: fc.constant('swap' as const), at }),
    fc.record({ op: fc.constant('truncate' as const), at }),
    fc.record({ op: fc.constant('replace' as const), at, value: nasty }),
    {
      weight: 4,
      arbitrary: fc.record({
        op: fc.constant('set' as const),
        at,
        path,
        key: hostileKey,
        value: nasty,
      }),
    },
    fc.record({ op: fc.constant('delete' as const), at, path }),
    fc.record({ op: fc.constant('retype' as const), at, from: at }),
  ),
  { maxLength: 4 },
);

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const isContainer = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null;

/** Walks `path` (each step picks a key by index modulo the keys) and returns the parent and key. */
function locate(
  root: Json,
  steps: number[],
): { parent: Record<string, unknown>; key: string } | undefined {
  let node = root;
  let found: { parent: Record<string, unknown>; key: string } | undefined;
  for (const step of steps) {
    if (!isContainer(node)) break;
    const keys = Object.keys(node);
    if (keys.length === 0) break;
    const key = keys[step % keys.length];
    found = { parent: node, key };
    node = node[key];
  }
  return found;
}

/**
 * Applies edits to `events` without touching it: copy on write, so untouched events are the
 * corpus' own (deep-frozen) objects and only edited ones are cloned and JSON round-tripped.
 */
export function mutateEvents(events: readonly Json[], mutations: EventMutation[]): Json[] {
  const out = events.slice() as Json[];
  const edited = new Set<Json>();
  const own = (i: number): Json => {
    if (!edited.has(out[i])) {
      out[i] = clone(out[i]);
      edited.add(out[i]);
    }
    return out[i];
  };
  for (const m of mutations) {
    if (out.length === 0) break;
    const i = m.at % out.length;
    switch (m.op) {
      case 'drop':
        out.splice(i, 1);
        break;
      case 'duplicate':
        out.splice(i, 0, out[i]);
        break;
      case 'swap':
        if (i + 1 < out.length) [out[i], out[i + 1]] = [out[i + 1], out[i]];
        break;
      case 'truncate':
        out.length = i;
        break;
      case 'replace':
        out[i] = clone(m.value ?? null);
        edited.add(out[i]);
        break;
      case 'set': {
        const event = own(i);
        const target = locate(event, m.path);
        const parent = target?.parent ?? (isContainer(event) ? event : undefined);
        const key = m.key ?? target?.key;
        if (parent && key !== undefined)
          Object.defineProperty(parent, key, {
            value: clone(m.value ?? null),
            enumerable: true,
            configurable: true,
            writable: true,
          });
        break;
      }
      case 'delete': {
        const target = locate(own(i), m.path);
        if (target) delete target.parent[target.key];
        break;
      }
      case 'retype': {
        const from = out[m.from % out.length];
        if (isContainer(out[i]) && isContainer(from) && 'type' in from)
          (own(i) as Record<string, unknown>).type = from.type;
        break;
      }
    }
  }
  // Edited events as a JSON parser would produce them (own "__proto__" keys, no undefined).
  return out.map((e) => (edited.has(e) ? clone(e) : e));
}

/** Freezes a value deeply: code that mutates the input it was given then fails loudly. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** One edit of a JSON body (as `set` / `delete` on the root value). */
export const bodyMutations: fc.Arbitrary<EventMutation[]> = fc.array(
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        op: fc.constant('set' as const),
        at: fc.constant(0),
        path,
        key: hostileKey,
        value: nasty,
      }),
    },
    fc.record({ op: fc.constant('delete' as const), at: fc.constant(0), path }),
    fc.record({ op: fc.constant('replace' as const), at: fc.constant(0), value: nasty }),
  ),
  { maxLength: 3 },
);

/** Applies edits to a copy of a JSON body. */
export function mutateBody(body: Json, mutations: EventMutation[]): Json {
  return mutateEvents([body], mutations)[0] ?? null;
}

/** One edit of SSE text: cut it, insert a line, or overwrite a range. Offsets are modulo the length. */
export type TextMutation =
  | { op: 'cut'; at: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'overwrite'; at: number; length: number; text: string };

const sseNoise = fc.oneof(
  fc.constantFrom(
    'data: null\n\n',
    'data: {\n\n',
    'data: [DONE]\n\n',
    'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"x"}}\n\n',
    ': comment\n',
    '\n\n',
    'data: 42\n\n',
    'data: "x"\n\n',
    'retry: 10\n',
    'event: ping\n',
    '\r\n',
    'data: {"error":{"message":"boom","code":"server_error"}}\n\n',
  ),
  fc.string({ maxLength: 12 }),
);

/** Edits of SSE text (0–3 of them). */
export const textMutations: fc.Arbitrary<TextMutation[]> = fc.array(
  fc.oneof(
    fc.record({ op: fc.constant('cut' as const), at }),
    { weight: 3, arbitrary: fc.record({ op: fc.constant('insert' as const), at, text: sseNoise }) },
    fc.record({
      op: fc.constant('overwrite' as const),
      at,
      length: fc.nat({ max: 20 }),
      text: fc.string({ maxLength: 8 }),
    }),
  ),
  { maxLength: 3 },
);

/** Applies edits to SSE text. */
export function mutateText(text: string, mutations: TextMutation[]): string {
  let out = text;
  for (const m of mutations) {
    const i = out.length === 0 ? 0 : m.at % (out.length + 1);
    if (m.op === 'cut') out = out.slice(0, i);
    else if (m.op === 'insert') out = out.slice(0, i) + m.text + out.slice(i);
    else out = out.slice(0, i) + m.text + out.slice(i + m.length);
  }
  return out;
}
