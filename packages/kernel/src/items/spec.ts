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
const within = (key: PropertyKey, issue: Issue | undefined): Issue | undefined =>
  issue && { path: [key, ...issue.path], message: issue.message };
const leaf = <S extends T>(
  build: (z: Z) => S,
  what: string,
  is = (v: unknown) => typeof v === what,
) => spec(build, (v) => (is(v) ? undefined : expected(what, v)));

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
  spec(
    (z) => z.number().int().min(min),
    (v) =>
      !Number.isFinite(v)
        ? expected('number', v)
        : !Number.isSafeInteger(v)
          ? expected('int', v)
          : (v as number) < min
            ? fail(`Too small: expected number to be >=${min}`)
            : undefined,
  );
export const nonEmptyStr = spec(
  (z) => z.string().min(1),
  (v) =>
    typeof v !== 'string'
      ? expected('string', v)
      : v === ''
        ? fail('Too small: expected string to have >=1 characters')
        : undefined,
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
  spec(
    (z) => z.literal(value),
    (v) => (v === value ? undefined : fail(`Invalid input: expected "${value}"`)),
  );
export const oneOf = <const L extends readonly [string, ...string[]]>(values: L) =>
  spec(
    (z) => z.enum(values),
    (v) =>
      values.includes(v as string)
        ? undefined
        : fail(`Invalid option: expected one of ${values.map((x) => `"${x}"`).join('|')}`),
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
        const issue = within(i, s.check(v[i]));
        if (issue) return issue;
      }
      return undefined;
    },
  );
export const record = <S extends T>(s: Spec<S>) =>
  spec(
    (z) => z.record(z.string(), s.zod(z)),
    (v) => {
      if (!isObject(v)) return expected('record', v);
      for (const key in v) {
        const issue = within(key, s.check(v[key]));
        if (issue) return issue;
      }
      return undefined;
    },
  );

type Shape = Record<string, Spec>;
type ZodShape<S extends Shape> = { [K in keyof S]: ReturnType<S[K]['zod']> };
function checkShape(shape: Shape, v: unknown): Issue | undefined {
  if (!isObject(v)) return expected('object', v);
  for (const key in shape) {
    const issue = within(key, shape[key].check(v[key]));
    if (issue) return issue;
  }
  return undefined;
}
const zodShape = <S extends Shape>(z: Z, shape: S) =>
  Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, s.zod(z)])) as ZodShape<S>;
/** An object that keeps unknown keys (`z.looseObject`). */
export const loose = <S extends Shape>(shape: S) =>
  spec(
    (z) => z.looseObject(zodShape(z, shape)),
    (v) => checkShape(shape, v),
  );
/** An object whose unknown keys zod drops (`z.object`); the check lets them be. */
export const object = <S extends Shape>(shape: S) =>
  spec(
    (z) => z.object(zodShape(z, shape)),
    (v) => checkShape(shape, v),
  );
/** A spec typed as `Out` in zod (for fields the kernel's own types describe). */
export const as = <Out>(s: Spec) => s as unknown as Spec<ZodNamespace.ZodType<Out>>;
