import { describe, expect, it } from 'vitest';
import { dropNullOptionals } from './mcp-function-tool.js';

describe('dropNullOptionals', () => {
  const schema = {
    type: 'object',
    properties: {
      path: { type: 'string' },
      head: { type: 'number' },
      note: { type: ['string', 'null'] },
      edits: {
        type: 'array',
        items: {
          type: 'object',
          properties: { oldText: { type: 'string' }, flag: { type: 'boolean' } },
          required: ['oldText'],
        },
      },
    },
    required: ['path'],
  };

  it('drops nulls of optional keys that do not accept null, at any depth', () => {
    expect(
      dropNullOptionals(
        { path: 'a', head: null, note: null, edits: [{ oldText: 'x', flag: null }] },
        schema,
      ),
    ).toEqual({ path: 'a', note: null, edits: [{ oldText: 'x' }] });
  });

  it('keeps nulls of required keys (the server decides) and values it has no schema for', () => {
    expect(dropNullOptionals({ path: null, extra: null }, schema)).toEqual({
      path: null,
      extra: null,
    });
  });
});
