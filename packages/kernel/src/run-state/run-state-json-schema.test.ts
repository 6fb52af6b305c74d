import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runStateJsonSchema } from '../../scripts/json-schemas.js';

describe('published RunState JSON Schema', () => {
  it('run-state.schema.json matches the zod schema (regenerate with npm run schema -w @baton/kernel)', async () => {
    const published = JSON.parse(
      readFileSync(new URL('../../run-state.schema.json', import.meta.url), 'utf8'),
    );
    expect(published).toEqual(await runStateJsonSchema());
    expect(published.properties.schemaVersion).toEqual({ type: 'string', enum: ['1.0', '1.1'] });
  });
});
