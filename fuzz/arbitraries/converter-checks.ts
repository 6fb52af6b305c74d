/**
 * Two properties every request converter keeps (the provider-chat, -anthropic and -openai
 * `bad-input-items` tests run them on their own `build`): a transcript with one broken item gives
 * a Baton error naming that item (or a body), never a raw error; and deep-frozen items and tools
 * convert to the same bytes as unfrozen copies and stay unchanged.
 */
import { BatonError, type Item, UserError } from '@baton/kernel';
import fc from 'fast-check';
import { itemsArbitrary } from './items.js';
import { malformedItemsArbitrary } from './malformed-items.js';
import { deepFreeze } from './mutations.js';

/** Builds the request body of `input` (and `tools`, default the test's own) as JSON text. */
export type BuildBody<T> = (input: Item[], tools?: T[]) => string;

/** 400 transcripts with one broken item: `build` returns a body or throws a Baton error. */
export async function checkBrokenItems<T>(build: BuildBody<T>): Promise<void> {
  const arb = await malformedItemsArbitrary();
  fc.assert(
    fc.property(arb, ({ items, index }) => {
      try {
        build(items);
      } catch (error) {
        if (!BatonError.isInstance(error)) throw error;
        const named = /^Input item (\d+)/.exec((error as Error).message)?.[1];
        if (named !== undefined && Number(named) > index)
          throw new Error(`The error names item ${named}, after the broken item ${index}.`);
      }
    }),
    { numRuns: 400, seed: 7 },
  );
}

/** 300 valid transcripts: frozen copies (and a frozen `tool`) give the same outcome, unchanged. */
export async function checkFrozenInput<T>(build: BuildBody<T>, tool: T): Promise<void> {
  const arb = await itemsArbitrary(10);
  const outcome = (input: Item[], tools?: T[]) => {
    try {
      return build(input, tools);
    } catch (error) {
      if (error instanceof UserError) return `UserError: ${error.message}`;
      throw error;
    }
  };
  fc.assert(
    fc.property(arb, (items) => {
      const want = outcome(structuredClone(items));
      const frozen = deepFreeze(structuredClone(items));
      const before = JSON.stringify(frozen);
      const got = outcome(frozen, [deepFreeze(structuredClone(tool))]);
      if (got !== want) throw new Error(`Frozen input converted differently:\n${got}\n${want}`);
      if (JSON.stringify(frozen) !== before)
        throw new Error("The converter changed the caller's items.");
    }),
    { numRuns: 300, seed: 7 },
  );
}

/** What converting gives: the body as JSON text, or a `UserError`'s name and message. */
export type ConversionOutcome = { json: string } | { error: string };

/** Runs `build`; a `UserError` becomes its text (any other error is thrown). */
export function conversionOutcome(build: () => unknown): ConversionOutcome {
  try {
    return { json: JSON.stringify(build()) };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return { error: `${error.name}: ${error.message}` };
  }
}

/**
 * A function call followed by the broken `item`: `build` must refuse it with a `UserError` (one
 * that names an input item names item 1). Returns that input and its JSON before the call, to
 * check nothing changed it.
 */
export function refusedAfterCall(
  build: (input: Item[]) => unknown,
  item: unknown,
): { input: Item[]; before: string } {
  const input = [
    { type: 'function_call', call_id: 'c1', name: 'get_weather', arguments: '{}' },
    item,
  ] as Item[];
  const before = JSON.stringify(input);
  try {
    build(input);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    if (
      /^Input item/.test(error.message) &&
      !/^Input item 1 .*is not a valid item \(/.test(error.message)
    )
      throw new Error(`The UserError does not name item 1: ${error.message}`);
    return { input, before };
  }
  throw new Error('build() accepted an input with a broken item.');
}

/** P2's history: cycles of a user message, a call, its output and an assistant answer. */
export function p2History(n: number): Item[] {
  return Array.from({ length: n }, (_, i): Item => {
    const call = `call_${Math.floor(i / 4)}`;
    const text = `text ${i}`;
    switch (i % 4) {
      case 0:
        return { type: 'message', role: 'user', content: text };
      case 1:
        return {
          type: 'function_call',
          call_id: call,
          name: 'lookup',
          arguments: `{"order":"#${i}"}`,
        };
      case 2:
        return { type: 'function_call_output', call_id: call, output: text };
      default:
        return { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] };
    }
  });
}
