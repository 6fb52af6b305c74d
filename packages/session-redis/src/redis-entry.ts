/**
 * The format of one list entry of a `RedisSession`: the JSON text `{"v":1,"item":{…}}`, where
 * `item` is one OpenAI Responses API item (Baton's item vocabulary) and `v` the entry schema
 * version. Versions only grow; a reader refuses entries newer than it knows.
 *
 * Version history (one line per version):
 * - 1: `{"v":1,"item":Item}`.
 */
import type { Item } from '@baton/kernel';
import { SessionError } from '@baton/kernel';

/** The entry schema version this package writes. */
export const REDIS_SESSION_ENTRY_VERSION = 1;

/** Where an entry sits, for error messages. */
export interface EntryContext {
  operation: string;
  /** The full Redis key of the list (including any client `keyPrefix`). */
  key: string;
}

/**
 * Serializes an item into an entry.
 * @throws SessionError when the item cannot be turned into JSON (a BigInt, a cycle).
 */
export function encodeEntry(item: Item, ctx: EntryContext): string {
  try {
    return JSON.stringify({ v: REDIS_SESSION_ENTRY_VERSION, item });
  } catch (error) {
    throw new SessionError(
      `Cannot store an item of type "${String((item as { type?: unknown })?.type)}" in Redis list "${ctx.key}": it is not JSON-serializable (${(error as Error).message}). Items must be plain JSON data; nothing of this ${ctx.operation} call was written.`,
      { operation: ctx.operation, key: ctx.key, cause: error },
    );
  }
}

/**
 * Parses the entry at list `index` (0 = oldest) back into an item.
 * @throws SessionError naming the index when the entry is not valid JSON, has no valid version
 *   or item, or was written by a newer entry version.
 */
export function decodeEntry(raw: string, index: number, ctx: EntryContext): Item {
  const where = `Entry at index ${index} of Redis list "${ctx.key}"`;
  const repair = `Remove or repair it (e.g. LSET ${ctx.key} ${index} <entry>, or clearSession()) to continue.`;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new SessionError(
      `${where} is corrupt: it is not valid JSON (${(error as Error).message}). ${repair}`,
      {
        operation: ctx.operation,
        key: ctx.key,
        cause: error,
      },
    );
  }
  const entry = value as { v?: unknown; item?: unknown };
  if (
    typeof value !== 'object' ||
    value === null ||
    !Number.isInteger(entry.v) ||
    (entry.v as number) < 1
  ) {
    throw new SessionError(
      `${where} is corrupt: it has no schema version "v" (expected {"v":1,"item":{…}}). ${repair}`,
      {
        operation: ctx.operation,
        key: ctx.key,
      },
    );
  }
  if ((entry.v as number) > REDIS_SESSION_ENTRY_VERSION) {
    throw new SessionError(
      `${where} was written with entry schema version ${entry.v}, but this @baton/session-redis reads up to version ${REDIS_SESSION_ENTRY_VERSION}. Upgrade @baton/session-redis to read this session.`,
      { operation: ctx.operation, key: ctx.key },
    );
  }
  const item = entry.item as { type?: unknown } | null | undefined;
  if (
    typeof item !== 'object' ||
    item === null ||
    Array.isArray(item) ||
    typeof item.type !== 'string'
  ) {
    throw new SessionError(
      `${where} is corrupt: it does not hold an item object with a string "type". ${repair}`,
      {
        operation: ctx.operation,
        key: ctx.key,
      },
    );
  }
  return item as Item;
}
