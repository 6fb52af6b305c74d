/**
 * Structure-aware mutations of JSON documents (a stored RunState, a session's rows): edits that
 * pick a node anywhere in the tree by index and delete, replace, retype, duplicate or move it, or
 * add a hostile key; then, sometimes, a cut or a flipped character in the JSON text. Each edit is
 * data, so fast-check shrinks a failing input to the fewest, smallest edits.
 */
import fc from 'fast-check';

/** One edit of a JSON tree. `at`/`from` pick nodes (modulo the node count, in document order). */
export type TreeEdit =
  | { op: 'delete'; at: number }
  | { op: 'replace'; at: number; value: unknown }
  | { op: 'retype'; at: number }
  | { op: 'duplicate'; at: number }
  | { op: 'copy'; at: number; from: number }
  | { op: 'set'; at: number; key: string; value: unknown }
  | { op: 'wrap'; at: number; depth: number }
  | { op: 'deep'; at: number; depth: number };

/** One edit of the JSON text after the tree edits. */
export type TextEdit = { op: 'cut'; at: number } | { op: 'flip'; at: number; char: string };

/** Values that stress a loader: wrong types, edge numbers, prototype names, odd strings. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    1e308,
    -0,
    Number.MAX_SAFE_INTEGER + 2,
    '',
    '__proto__',
    'constructor',
    'toString',
    'function_call',
    'function_call_output',
    'message',
    'tool_approval_item',
    'tool_call_item',
    'tool_call_output_item',
    'message_output_item',
    'handoff_call_item',
    'handoff_output_item',
    'reasoning_item',
    'approval',
    'in_doubt',
    '1.0',
    '1.1',
    '9.9',
    '\u0000',
    '\ud800',
    [],
    {},
    [null],
    { type: 'message' },
    { type: 'function_call', call_id: 'c1', name: 'x', arguments: '{' },
  ),
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.jsonValue({ maxDepth: 3 }),
);

const key = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'type',
    'call_id',
    'path',
    'kind',
    'v',
    'item',
    'status',
  ),
  fc.string({ maxLength: 8 }),
);
const at = fc.nat({ max: 100_000 });

export const treeEdit: fc.Arbitrary<TreeEdit> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), at }) },
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant('replace' as const), at, value: hostileValue }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('retype' as const), at }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('duplicate' as const), at }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('copy' as const), at, from: at }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('set' as const), at, key, value: hostileValue }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('deep' as const),
      at,
      depth: fc.constantFrom(300, 1_000, 6_000, 50_000),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('wrap' as const),
      at,
      depth: fc.integer({ min: 1, max: 40 }),
    }),
  },
);

export const textEdit: fc.Arbitrary<TextEdit> = fc.oneof(
  fc.record({ op: fc.constant('cut' as const), at }),
  fc.record({
    op: fc.constant('flip' as const),
    at,
    char: fc.constantFrom('"', '{', '}', ']', ',', ':', '\\', 'x', '0'),
  }),
);

/**
 * Marks a value to become `depth` nested arrays in the JSON text (a tree that deep could not be
 * copied or stringified here: V8's JSON.stringify overflows the stack near 5,000 levels, while
 * JSON.parse reads any depth).
 */
const DEEP = '\u0001deep:';
const DEEP_IN_JSON = /"\\u0001deep:(\d+)\\u0001deep:"/g;

/** JSON text of a document from `applyTreeEdits`, its deep markers expanded. */
export function toJsonText(doc: unknown): string {
  return JSON.stringify(doc).replace(
    DEEP_IN_JSON,
    (_m, n) => `${'['.repeat(Number(n))}0${']'.repeat(Number(n))}`,
  );
}

type Node = { parent: Record<string, unknown> | unknown[]; key: string | number; value: unknown };

/** Every non-root node of `root`, in document order. */
export function nodesOf(root: unknown): Node[] {
  const nodes: Node[] = [];
  const walk = (value: unknown) => {
    if (typeof value !== 'object' || value === null) return;
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [i, v])
      : Object.entries(value);
    for (const [k, v] of entries) {
      nodes.push({ parent: value as Node['parent'], key: k, value: v });
      walk(v);
    }
  };
  walk(root);
  return nodes;
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function retype(value: unknown): unknown {
  if (typeof value === 'string')
    return value === '' ? 0 : Number.isNaN(Number(value)) ? [value] : Number(value);
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 0;
  if (Array.isArray(value)) return Object.fromEntries(value.map((v, i) => [String(i), v]));
  if (value === null) return {};
  return Object.values(value as object);
}

/** Applies the edits to a copy of `doc` (a JSON document); returns the edited document. */
export function applyTreeEdits(doc: unknown, edits: TreeEdit[]): unknown {
  const root = { doc: clone(doc) };
  for (const edit of edits) {
    const nodes = nodesOf(root);
    if (nodes.length === 0) break;
    const node = nodes[edit.at % nodes.length];
    const set = (value: unknown) => {
      (node.parent as Record<string | number, unknown>)[node.key] = value;
    };
    switch (edit.op) {
      case 'delete':
        if (Array.isArray(node.parent)) node.parent.splice(node.key as number, 1);
        else if (node.parent !== root) delete (node.parent as Record<string, unknown>)[node.key];
        break;
      case 'replace':
        set(clone(edit.value));
        break;
      case 'retype':
        set(retype(node.value));
        break;
      case 'duplicate':
        if (Array.isArray(node.parent))
          node.parent.splice(node.key as number, 0, clone(node.value));
        else if (Array.isArray(node.value) && node.value.length > 0)
          node.value.push(clone(node.value[0]));
        break;
      case 'copy':
        set(clone(nodes[edit.from % nodes.length].value));
        break;
      case 'set':
        if (typeof node.value === 'object' && node.value !== null && !Array.isArray(node.value))
          // defineProperty, so "__proto__" becomes an own key exactly as JSON.parse makes it.
          Object.defineProperty(node.value, edit.key, {
            value: clone(edit.value),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        else set(clone(edit.value));
        break;
      case 'deep':
        set(`${DEEP}${edit.depth}${DEEP}`);
        break;
      case 'wrap': {
        let value = node.value;
        for (let i = 0; i < edit.depth; i++) value = i % 2 ? { x: value } : [value];
        set(value);
        break;
      }
    }
  }
  return root.doc;
}

/** Applies text edits to JSON text. */
export function applyTextEdits(text: string, edits: TextEdit[]): string {
  let out = text;
  for (const edit of edits) {
    if (out.length === 0) break;
    const i = edit.at % out.length;
    out = edit.op === 'cut' ? out.slice(0, i) : out.slice(0, i) + edit.char + out.slice(i + 1);
  }
  return out;
}

/** A mutated document: one of `seeds`, 0–`maxEdits` tree edits, sometimes a text edit. */
export function mutatedJsonText(
  seeds: readonly unknown[],
  options: { maxEdits?: number } = {},
): fc.Arbitrary<{ seed: number; edits: TreeEdit[]; text: TextEdit[] }> {
  return fc.record({
    seed: fc.nat({ max: seeds.length - 1 }),
    edits: fc.array(treeEdit, { minLength: 0, maxLength: options.maxEdits ?? 4 }),
    text: fc.oneof(
      { weight: 6, arbitrary: fc.constant<TextEdit[]>([]) },
      { weight: 1, arbitrary: fc.array(textEdit, { minLength: 1, maxLength: 2 }) },
    ),
  });
}

/** The JSON text of a `mutatedJsonText` input. */
export function renderMutation(
  seeds: readonly unknown[],
  input: { seed: number; edits: TreeEdit[]; text: TextEdit[] },
): string {
  return applyTextEdits(toJsonText(applyTreeEdits(seeds[input.seed], input.edits)), input.text);
}

/** Nesting depth of a JSON value (0 for a scalar). */
export function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (d > max) max = d;
    if (typeof v === 'object' && v !== null)
      for (const c of Object.values(v)) stack.push([c, d + 1]);
  }
  return max;
}

/** Deep equality of two JSON values, without recursion (any depth). */
export function sameJson(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    const kx = Object.keys(x);
    const ky = Object.keys(y);
    if (kx.length !== ky.length) return false;
    for (let i = 0; i < kx.length; i++) {
      if (kx[i] !== ky[i]) return false;
      stack.push([(x as Record<string, unknown>)[kx[i]], (y as Record<string, unknown>)[ky[i]]]);
    }
  }
  return true;
}
