/**
 * Specs: a schema written once that gives both its zod schema (built on demand, once per zod
 * namespace, typed like the zod calls it stands for) and a check that needs no zod, reporting the
 * first problem in zod's words and order. The item and RunState schemas are written with these,
 * so boundaries check data without loading (or bundling) zod.
 */
import type { z as ZodNamespace } from 'zod';

export type Z = typeof ZodNamespace;
type T = ZodNamespace.ZodType;
/** A problem: where (keys and indexes) and what, in zod's words. */
export type Issue = { path: PropertyKey[]; message: string };

/** A schema as zod (`zod(z)`) and as a zod-free `check` (`undefined` when the value passes). */
export interface Spec<S extends T = T> {
  zod(z: Z): S;
  check(value: unknown): Issue | undefined;
}

export function spec<S extends T>(build: (z: Z) => S, check: Spec['check']): Spec<S> {
  const built = new WeakMap<Z, S>();
  return { zod: (z) => built.get(z) ?? (built.set(z, build(z)).get(z) as S), check };
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const received = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isNaN(v) ? 'NaN' : typeof v;
const fail = (message: string): Issue => ({ path: [], message });
export const expected = (what: string, v: unknown) =>
  fail(`Invalid input: expected ${what}, received ${received(v)}`);
/** A spec that passes what `is` accepts, else fails with `message(v)`. */
const when = <S extends T>(
  build: (z: Z) => S,
  is: (v: any) => boolean,
  message: (v: any) => Issue,
) => spec(build, (v) => (is(v) ? undefined : message(v)));
const leaf = <S extends T>(
  build: (z: Z) => S,
  what: string,
  is = (v: unknown) => typeof v === what,
) => when(build, is, (v) => expected(what, v));
/** The first issue of `check(key)` on `v[key]` for `keys`, with its key in front of its path. */
function first(v: any, keys: ArrayLike<PropertyKey>, check: (key: any) => Spec['check']) {
  for (let i = 0; i < keys.length; i++) {
    const issue = check(keys[i])(v[keys[i]]);
    if (issue) return { path: [keys[i], ...issue.path], message: issue.message };
  }
  return undefined;
}

export const str = leaf((z) => z.string(), 'string');
export const bool = leaf((z) => z.boolean(), 'boolean');
export const num = leaf((z) => z.number(), 'number', Number.isFinite);
export const list = leaf((z) => z.array(z.unknown()), 'array', Array.isArray);
export const any = spec(
  (z) => z.unknown(),
  () => undefined,
);
/** An integer ≥ `min`. */
export const int = (min: number) =>
  when(
    (z) => z.number().int().min(min),
    (v) => Number.isSafeInteger(v) && v >= min,
    (v) =>
      Number.isSafeInteger(v)
        ? fail(`Too small: expected number to be >=${min}`)
        : expected(Number.isFinite(v) ? 'int' : 'number', v),
  );
export const nonEmptyStr = when(
  (z) => z.string().min(1),
  (v) => typeof v === 'string' && v !== '',
  (v) =>
    v === '' ? fail('Too small: expected string to have >=1 characters') : expected('string', v),
);
export const opt = <S extends T>(s: Spec<S>) =>
  spec(
    (z) => s.zod(z).optional(),
    (v) => (v === undefined ? undefined : s.check(v)),
  );
export const nul = <S extends T>(s: Spec<S>) =>
  spec(
    (z) => s.zod(z).nullable(),
    (v) => (v === null ? undefined : s.check(v)),
  );
export const lit = <L extends string>(value: L) =>
  when(
    (z) => z.literal(value),
    (v) => v === value,
    () => fail(`Invalid input: expected "${value}"`),
  );
export const oneOf = <const L extends readonly [string, ...string[]]>(values: L) =>
  when(
    (z) => z.enum(values),
    (v) => values.includes(v),
    () => fail(`Invalid option: expected one of ${values.map((x) => `"${x}"`).join('|')}`),
  );
export const either = <A extends T, B extends T>(a: Spec<A>, b: Spec<B>) =>
  spec(
    (z) => z.union([a.zod(z), b.zod(z)]),
    (v) => (a.check(v) && b.check(v) ? fail('Invalid input') : undefined),
  );
export const arrayOf = <S extends T>(s: Spec<S>) =>
  spec(
    (z) => z.array(s.zod(z)),
    (v) => {
      if (!Array.isArray(v)) return expected('array', v);
      for (let i = 0; i < v.length; i++) {
        const issue = s.check(v[i]);
        if (issue) return { path: [i, ...issue.path], message: issue.message };
      }
      return undefined;
    },
  );
export const record = <S extends T>(s: Spec<S>) =>
  spec(
    (z) => z.record(z.string(), s.zod(z)),
    (v) => (isObject(v) ? first(v, Object.keys(v), () => s.check) : expected('record', v)),
  );

type Shape = Record<string, Spec>;
type ZodShape<S extends Shape> = { [K in keyof S]: ReturnType<S[K]['zod']> };
const zodShape = <S extends Shape>(z: Z, shape: S) =>
  Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, s.zod(z)])) as ZodShape<S>;
const checkShape = (shape: Shape) => {
  const keys = Object.keys(shape);
  const of = (k: string) => shape[k].check;
  return (v: unknown) => (isObject(v) ? first(v, keys, of) : expected('object', v));
};
/** An object that keeps unknown keys (`z.looseObject`). */
export const loose = <S extends Shape>(shape: S) =>
  spec((z) => z.looseObject(zodShape(z, shape)), checkShape(shape));
/** An object whose unknown keys zod drops (`z.object`); the check lets them be. */
export const object = <S extends Shape>(shape: S) =>
  spec((z) => z.object(zodShape(z, shape)), checkShape(shape));
/** A spec typed as `Out` in zod (for fields the kernel's own types describe). */
export const as = <Out>(s: Spec) => s as unknown as Spec<ZodNamespace.ZodType<Out>>;
