import { findItemIssue, type Item, loadItemSchemas, SessionError } from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import { decodeEntry, encodeEntry, REDIS_SESSION_ENTRY_VERSION } from './redis-entry.js';

const ctx = {
  operation: 'getItems',
  key: 'baton:session:{s}:items',
  schemas: await loadItemSchemas(),
};
const item: Item = {
  type: 'reasoning',
  summary: [],
  encrypted_content: 'x',
  provider_data: { a: { b: [1] } },
};

/** The SessionError `fn` throws or returns (decodeEntry returns the error of an invalid entry). */
function errorOf(fn: () => unknown): SessionError {
  let result: unknown;
  try {
    result = fn();
  } catch (error) {
    result = error;
  }
  expect(result).toBeInstanceOf(SessionError);
  return result as SessionError;
}

describe('Redis session entries', () => {
  it('encodes an item as {"v":1,"item":…} and decodes it back deep-equal', () => {
    const raw = encodeEntry(item, ctx);
    expect(JSON.parse(raw)).toEqual({ v: REDIS_SESSION_ENTRY_VERSION, item });
    expect(raw.startsWith('{"v":1,')).toBe(true);
    expect(decodeEntry(raw, 0, ctx)).toEqual(item);
  });

  it('decodes the common item shapes exactly as the full item check judges them', () => {
    const cases: Record<string, unknown>[] = [
      { type: 'message', role: 'user', content: 'hi' },
      { type: 'message', role: 'assistant', content: 'ok', id: 'msg_1', status: 'completed' },
      { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: 'done', status: 'incomplete' },
      // Invalid in one field each: must be refused, as the full check refuses them.
      { type: 'message', role: 'robot', content: 'hi' },
      { type: 'message', role: 'user', content: 'hi', id: 7 },
      { type: 'message', role: 'user', content: 'hi', status: 'done' },
      { type: 'message', role: 'user', content: 'hi', provider_data: 'x' },
      { type: 'message', role: 'user', content: 'hi', phase: 3 },
      { type: 'function_call', call_id: 'c1', name: 'f', arguments: {} },
      { type: 'function_call_output', call_id: 1, output: 'done' },
      { type: 'function_call_output', call_id: 'c1', output: 'done', id: null },
      // Valid with fields the quick check does not know: the full check decides.
      { type: 'message', role: 'user', content: 'hi', provider_data: { a: 1 }, extra: [1] },
      { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}', status: 'completed' },
    ];
    for (const value of cases) {
      const decoded = decodeEntry(JSON.stringify({ v: 1, item: value }), 0, ctx);
      if (findItemIssue(value) === undefined) expect(decoded).toEqual(value);
      else expect(decoded).toBeInstanceOf(SessionError);
    }
  });

  it('names the index, key and operation of a corrupt entry', () => {
    const error = errorOf(() => decodeEntry('{"v":1,"item":', 7, ctx));
    expect(error.operation).toBe('getItems');
    expect(error.key).toBe(ctx.key);
    expect(error.message).toMatch(
      /^Entry at index 7 of Redis list "baton:session:\{s\}:items" is corrupt: it is not valid JSON/,
    );
    expect(error.cause).toBeInstanceOf(SyntaxError);
    expect(errorOf(() => decodeEntry('null', 1, ctx)).message).toMatch(
      /index 1 .*no schema version/,
    );
    expect(errorOf(() => decodeEntry('{"v":0,"item":{"type":"x"}}', 1, ctx)).message).toMatch(
      /no schema version/,
    );
    expect(errorOf(() => decodeEntry('{"v":1,"item":[]}', 2, ctx)).message).toMatch(
      /index 2 .*does not hold a valid item \(not an object\)/,
    );
    expect(errorOf(() => decodeEntry('{"v":1,"item":{"type":3}}', 2, ctx)).message).toMatch(
      /string "type"/,
    );
  });

  it('checks the item with the kernel item schemas (a message without content is invalid)', () => {
    const error = errorOf(() =>
      decodeEntry('{"v":1,"item":{"type":"message","role":"user"}}', 3, ctx),
    );
    expect(error.message).toMatch(
      /^Entry at index 3 of Redis list "baton:session:\{s\}:items" does not hold a valid item \(content: Invalid input: expected string, received undefined\)\. Repair it \(LSET .* 3 <entry>\).*onInvalidItem: 'skip'/,
    );
    expect(
      errorOf(() => decodeEntry('{"v":1,"item":{"type":"function_call","call_id":"c"}}', 0, ctx))
        .message,
    ).toMatch(/name: Invalid input/);
  });

  it('refuses entries of a newer version, naming both versions', () => {
    const error = errorOf(() => decodeEntry('{"v":3,"item":{"type":"message"}}', 4, ctx));
    expect(error.message).toMatch(
      /index 4 .*entry schema version 3, but this @baton\/session-redis reads up to version 1/,
    );
  });

  it('refuses an item that JSON cannot represent', () => {
    const error = errorOf(() =>
      encodeEntry({ type: 'x', n: 1n } as unknown as Item, { ...ctx, operation: 'addItems' }),
    );
    expect(error.operation).toBe('addItems');
    expect(error.message).toMatch(
      /not JSON-serializable.*nothing of this addItems call was written/,
    );
  });
});
