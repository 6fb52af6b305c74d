/**
 * Checks items against the published JSON Schema of the item vocabulary
 * (`@baton/kernel/items.schema.json`, draft 2020-12) with a real validator (Ajv's 2020 build):
 * what a third party validating Baton data would see. Providers use it on everything they
 * produce; the kernel on its fixture corpus.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

const require = createRequire(import.meta.url);

/** The published schemas as shipped (resolved through the kernel package's `exports`). */
export function publishedSchemas(): { items: Record<string, any>; runState: Record<string, any> } {
  const read = (file: string) =>
    JSON.parse(readFileSync(require.resolve(`@baton/kernel/${file}`), 'utf8'));
  return { items: read('items.schema.json'), runState: read('run-state.schema.json') };
}

let validators: { item: ValidateFunction; runState: ValidateFunction } | undefined;

/** Ajv validators of one item and of a serialized RunState (both schemas loaded, refs resolved). */
export function publishedValidators(): { item: ValidateFunction; runState: ValidateFunction } {
  if (validators) return validators;
  const { items, runState } = publishedSchemas();
  const ajv = new Ajv2020({ allErrors: false, strict: true });
  ajv.addSchema(items);
  validators = { item: ajv.compile(items), runState: ajv.compile(runState) };
  return validators;
}

/**
 * Why each invalid entry of `items` does not match `items.schema.json`, as
 * `#<index> (<type>): <instancePath> <message>`; an empty list when all match.
 */
export function itemSchemaViolations(items: readonly unknown[]): string[] {
  const { item } = publishedValidators();
  const out: string[] = [];
  items.forEach((value, index) => {
    if (item(value)) return;
    const error = item.errors?.[0];
    const type = (value as { type?: unknown } | null)?.type;
    out.push(`#${index} (${String(type)}): ${error?.instancePath || '/'} ${error?.message}`);
  });
  return out;
}
