/**
 * The format of one list entry of a `RedisSession`: the JSON text `{"v":1,"item":{…}}`, where
 * `item` is one OpenAI Responses API item (Baton's item vocabulary, valid against
 * `@baton/kernel/items.schema.json`, JSON Schema 2020-12, `$defs/Item`) and `v` the entry schema
 * version. Versions only grow; a reader refuses entries newer than it knows.
 *
 * Version history (one line per version):
 * - 1: `{"v":1,"item":Item}`.
 */
import type { Item } from '@baton/kernel';
import { findItemIssue, SessionError } from '@baton/kernel';

/** The entry schema version this package writes. */
export const REDIS_SESSION_ENTRY_VERSION = 1;

/** Where an entry sits, for error messages. */
export interface EntryContext {
  operation: string;
  /** The full Redis key of the list (including any client `keyPrefix`). */
  key: string;
}

/** Where an entry is read. */
export type ReadContext = EntryContext;

/**
 * Serializes an item into an entry. The item is checked like an entry read back: a value that is
 * not JSON data, or JSON but not an item of the vocabulary, would make every later read of the
 * list fail, so it is refused before anything of the call is written.
 * @throws SessionError when the item cannot be turned into JSON (a BigInt, a cycle, `undefined`)
 *   or is not a valid item (the message says which and why).
 */
export function encodeEntry(item: Item, ctx: EntryContext): string {
  const refuse = (what: string, cause?: unknown) =>
    new SessionError(
      `Cannot store an item of type "${String((item as { type?: unknown } | null | undefined)?.type)}" in Redis list "${ctx.key}": it ${what}. Items must be Responses API items (plain JSON data, valid against @baton/kernel/items.schema.json); nothing of this ${ctx.operation} call was written.`,
      { operation: ctx.operation, key: ctx.key, cause },
    );
  let text: string | undefined;
  try {
    text = JSON.stringify(item);
  } catch (error) {
    throw refuse(`is not JSON-serializable (${(error as Error).message})`, error);
  }
  if (text === undefined) throw refuse(`is ${typeof item}, not JSON-serializable`);
  const issue = findItemIssue(JSON.parse(text));
  if (issue !== undefined) throw refuse(`is not a valid item (${issue})`);
  return `{"v":${REDIS_SESSION_ENTRY_VERSION},"item":${text}}`;
}

/**
 * Parses the entry at list `index` (0 = oldest) back into an item, or returns the `SessionError`
 * (naming the index) of an entry that holds none: not valid JSON, no valid version, or no valid
 * item of the vocabulary (checked with the kernel's `findItemIssue`).
 * @throws SessionError when the entry was written by a newer entry version (upgrade to read it).
 */
export function decodeEntry(raw: string, index: number, ctx: ReadContext): Item | SessionError {
  const where = () => `Entry at index ${index} of Redis list "${ctx.key}"`;
  const invalid = (what: string, cause?: unknown) =>
    new SessionError(
      `${where()} ${what}. Repair it (LSET ${ctx.key} ${index} <entry>), delete it (LSET to a marker, then LREM ${ctx.key} 1 <marker>), or open the session with onInvalidItem: 'skip' to leave such entries out.`,
      { operation: ctx.operation, key: ctx.key, cause },
    );
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return invalid(`is corrupt: it is not valid JSON (${(error as Error).message})`, error);
  }
  const entry = value as { v?: unknown; item?: unknown };
  if (
    typeof value !== 'object' ||
    value === null ||
    !Number.isInteger(entry.v) ||
    (entry.v as number) < 1
  ) {
    return invalid('is corrupt: it has no schema version "v" (expected {"v":1,"item":{…}})');
  }
  if ((entry.v as number) > REDIS_SESSION_ENTRY_VERSION) {
    throw new SessionError(
      `${where()} was written with entry schema version ${entry.v}, but this @baton/session-redis reads up to version ${REDIS_SESSION_ENTRY_VERSION}. Upgrade @baton/session-redis to read this session.`,
      { operation: ctx.operation, key: ctx.key },
    );
  }
  // The common shapes first: a check that only accepts what `findItemIssue` accepts, so only
  // other items (and invalid ones, for the error) pay for the full check.
  if (isPlainItem(entry.item)) return entry.item as Item;
  const issue = findItemIssue(entry.item);
  return issue === undefined
    ? (entry.item as Item)
    : invalid(`does not hold a valid item (${issue})`);
}

const ROLES = new Set(['user', 'assistant', 'system', 'developer']);
const STATUSES = new Set(['in_progress', 'completed', 'incomplete']);

/**
 * True for the items most entries hold, in a form the kernel's item check accepts: a `message`
 * with string `content`, a `function_call` and a `function_call_output` with a string `output`,
 * each with no fields but the ones checked here (all strings, depth 1). Anything else — parts
 * lists, `provider_data`, other types, an invalid field — returns false: the caller then runs the
 * full check (`findItemIssue`), so the outcome is the same either way.
 */
function isPlainItem(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const item = value as Record<string, unknown>;
  let known = 0;
  if (item.id !== undefined) {
    if (typeof item.id !== 'string') return false;
    known++;
  }
  if (item.status !== undefined) {
    if (!STATUSES.has(item.status as string)) return false;
    known++;
  }
  switch (item.type) {
    case 'message':
      if (!ROLES.has(item.role as string) || typeof item.content !== 'string') return false;
      known += 3;
      break;
    case 'function_call':
      if (
        typeof item.call_id !== 'string' ||
        typeof item.name !== 'string' ||
        typeof item.arguments !== 'string'
      )
        return false;
      known += 4;
      break;
    case 'function_call_output':
      if (typeof item.call_id !== 'string' || typeof item.output !== 'string') return false;
      known += 3;
      break;
    default:
      return false;
  }
  // No other field (one that would need the full check): counted without allocating a key list.
  let keys = 0;
  for (const _ in item) if (++keys > known) return false;
  return keys === known;
}
