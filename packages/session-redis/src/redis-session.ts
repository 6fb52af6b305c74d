/**
 * `RedisSession`: a `Session` (v2) stored in Redis, shared by every process that can reach it.
 */
import { createHash } from 'node:crypto';
import type { AddItemsOptions, Item, SessionV2 } from '@baton/kernel';
import { readAddItemsArgs, readItemLimit, SessionError, UserError } from '@baton/kernel';
import type { ChainableCommander, Cluster, Redis, RedisOptions } from 'ioredis';
import {
  createOwnedClient,
  ownedClientOptions,
  type RedisLikeClient,
  toSessionError,
  waitUntilReady,
} from './redis-connection.js';
import { decodeEntry, encodeEntry } from './redis-entry.js';
import { REPLACE_OLDEST_SCRIPT } from './redis-session-rewrite.js';

/** Options of {@link RedisSession}. */
export interface RedisSessionOptions {
  /** The conversation's id (non-empty). Used inside a `{…}` hash tag, so both keys share a cluster slot. */
  sessionId: string;
  /**
   * An ioredis client (`Redis` or `Cluster`), owned by the caller: `close()` leaves it open. With
   * ioredis defaults a command waits while Redis is down (offline queue, 20 retries): pass
   * `enableOfflineQueue: false` and `maxRetriesPerRequest: 0` (or a small number) to make session
   * calls fail fast with `SessionError`. A client `keyPrefix` is applied before `keyPrefix` below.
   */
  client: Redis | Cluster;
  /** Prefix of this session's keys; default `'baton:session:'`. Keys: `<keyPrefix>{<sessionId>}:items`, `:meta` and `:appends`. */
  keyPrefix?: string;
  /** When set, the session's keys expire this many seconds after the last write (`addItems`, `popItem`). */
  ttlSeconds?: number;
  /** How many newest items `getItems()` returns when called without a limit; default all. */
  limit?: number;
  /**
   * What reads do with an entry that holds no valid item (not JSON, no version, or not an item
   * of the vocabulary): `'throw'` (default) a `SessionError` naming its index; `'skip'` leaves it
   * out of `getItems` (so `getItems(n)` may return fewer than `n`) and `popItem` removes it on
   * its way to the newest valid item. Entries of a newer version always throw.
   */
  onInvalidItem?: 'throw' | 'skip';
}

/** Options of {@link RedisSession.fromUrl}. */
export interface RedisSessionFromUrlOptions extends Omit<RedisSessionOptions, 'client'> {
  /** How long (ms) an operation waits for a (re)connection before failing; default 2000. */
  connectTimeoutMs?: number;
  /**
   * ioredis options merged over the defaults of an owned client: `lazyConnect: true`,
   * `enableOfflineQueue: false`, `maxRetriesPerRequest: 0`, `connectTimeout: connectTimeoutMs`,
   * `retryStrategy` reconnecting every ≤ 500 ms. While Redis is down, a call fails at
   * the next failed reconnect attempt (≤ 500 ms) or after `connectTimeoutMs`.
   */
  redisOptions?: RedisOptions;
}

/** The metadata hash of a session. Times are Unix epoch milliseconds. */
export interface RedisSessionMetadata {
  createdAtMs: number;
  updatedAtMs: number;
  itemCount: number;
}

/**
 * The Lua script of `addItems` (sent with EVALSHA): KEYS items, meta, appends · ARGV
 * appendId|'', nowMs, ttlMs, entries… → 1 appended, 0 the id was applied before. One atomic
 * step: the id guard (`SADD`), the entries, the meta hash and the TTL. Exported for tools and
 * benchmarks that need the exact Redis work of an append.
 */
export const ADD_ITEMS_SCRIPT = `
if ARGV[1] ~= '' and redis.call('SADD', KEYS[3], ARGV[1]) == 0 then return 0 end
for i = 4, #ARGV, 1000 do
  redis.call('RPUSH', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
redis.call('HSETNX', KEYS[2], 'created_at_ms', ARGV[2])
redis.call('HSET', KEYS[2], 'updated_at_ms', ARGV[2])
redis.call('HINCRBY', KEYS[2], 'item_count', #ARGV - 3)
if tonumber(ARGV[3]) > 0 then
  for k = 1, 3 do redis.call('PEXPIRE', KEYS[k], ARGV[3]) end
end
return 1
`;

/** Pops the newest entry and updates the meta hash atomically; returns `{entry, newLength}` or `{}`. */
const POP_SCRIPT = `
local v = redis.call('RPOP', KEYS[1])
if not v then return {} end
redis.call('HINCRBY', KEYS[2], 'item_count', -1)
redis.call('HSET', KEYS[2], 'updated_at_ms', ARGV[1])
if tonumber(ARGV[2]) > 0 then
  for k = 1, 3 do redis.call('PEXPIRE', KEYS[k], ARGV[2]) end
end
return {v, redis.call('LLEN', KEYS[1])}
`;

/** A Lua script and its SHA1, sent with EVALSHA (EVAL once Redis answers NOSCRIPT). */
const script = (lua: string) => ({ lua, sha: createHash('sha1').update(lua).digest('hex') });
const ADD = script(ADD_ITEMS_SCRIPT);
const POP = script(POP_SCRIPT);
const REPLACE = script(REPLACE_OLDEST_SCRIPT);

/**
 * A `Session` (v2) in Redis: one list of entries (`{"v":1,"item":…}`, OpenAI Responses API
 * items) at `<keyPrefix>{<sessionId>}:items`, a hash `<keyPrefix>{<sessionId>}:meta` with
 * `created_at_ms`, `updated_at_ms` and `item_count`, and a set `<keyPrefix>{<sessionId>}:appends`
 * of applied append ids.
 *
 * - `addItems` is one Lua script (append-id guard `SADD` + RPUSH + meta + TTL): concurrent
 *   writers never interleave one call's items, a failed call writes nothing, and with an
 *   `appendId` a call applied before (e.g. one whose reply was lost) stores nothing again.
 * - `getItems(limit)` is one `LRANGE -limit -1` and checks every entry with the kernel's item
 *   check (`findItemIssue`, no zod); `popItem` is an atomic `RPOP` script; `clearSession` deletes the three keys. Works
 *   on Redis Cluster (hash tags) and with client prefixes.
 *
 * @throws UserError from the constructor for an empty `sessionId` or a bad `ttlSeconds`/`limit`/
 *   `onInvalidItem`.
 * @throws SessionError from every method when Redis fails or is unreachable (`operation`, and
 *   `key` = the full list key), or when an entry is invalid or newer (the message names its index).
 */
export class RedisSession implements SessionV2 {
  readonly specificationVersion = 'v2' as const;
  readonly sessionId: string;
  /** The list key, without the client's own `keyPrefix`. */
  readonly itemsKey: string;
  /** The metadata hash key, without the client's own `keyPrefix`. */
  readonly metaKey: string;
  /** The key of the set of applied append ids, without the client's own `keyPrefix`. */
  readonly appendsKey: string;
  private readonly client: Redis;
  private readonly ttlMs: number;
  private readonly limit?: number;
  private readonly skipInvalid: boolean;
  /** Set by `fromUrl`: the session owns its client. */
  private owned?: { connectTimeoutMs: number; lastError: () => Error | undefined };

  constructor(options: RedisSessionOptions) {
    if (typeof options.sessionId !== 'string' || options.sessionId === '') {
      throw new UserError('RedisSession needs a non-empty `sessionId` string.');
    }
    if (!options.client)
      throw new UserError('RedisSession needs an ioredis `client` (or use RedisSession.fromUrl).');
    const ttl = options.ttlSeconds;
    if (ttl !== undefined && !(Number.isFinite(ttl) && ttl > 0)) {
      throw new UserError(
        `RedisSession ttlSeconds must be a positive number of seconds, got ${String(ttl)}.`,
      );
    }
    if (options.limit !== undefined && !(Number.isInteger(options.limit) && options.limit >= 0)) {
      throw new UserError(
        `RedisSession limit must be a non-negative integer, got ${String(options.limit)}.`,
      );
    }
    const onInvalid = options.onInvalidItem;
    if (onInvalid !== undefined && onInvalid !== 'throw' && onInvalid !== 'skip')
      throw new UserError(
        `RedisSession onInvalidItem must be 'throw' or 'skip', got ${String(onInvalid)}.`,
      );
    this.skipInvalid = onInvalid === 'skip';
    this.sessionId = options.sessionId;
    const base = `${options.keyPrefix ?? 'baton:session:'}{${options.sessionId}}`;
    this.itemsKey = `${base}:items`;
    this.metaKey = `${base}:meta`;
    this.appendsKey = `${base}:appends`;
    this.client = options.client as Redis;
    this.ttlMs = ttl === undefined ? 0 : Math.max(1, Math.round(ttl * 1000));
    this.limit = options.limit;
  }

  /**
   * A session with its own ioredis client for `url` (`redis://[user:pass@]host:port[/db]`),
   * configured to fail fast while Redis is down and to reconnect in the background; `close()`
   * closes it. Connects on the first operation.
   */
  static fromUrl(url: string, options: RedisSessionFromUrlOptions): RedisSession {
    if (!URL.canParse(url) || !/^rediss?:$/.test(new URL(url).protocol)) {
      throw new UserError(
        `RedisSession.fromUrl: "${url}" is not a redis:// or rediss:// URL (e.g. redis://127.0.0.1:6379/0).`,
      );
    }
    const connectTimeoutMs = options.connectTimeoutMs ?? 2000;
    const { client, lastError } = createOwnedClient(
      url,
      ownedClientOptions(connectTimeoutMs, options.redisOptions),
    );
    const session = new RedisSession({ ...options, client });
    session.owned = { connectTimeoutMs, lastError };
    return session;
  }

  /**
   * The newest `limit` items (default: the constructor's `limit`, else all), oldest first: one
   * `LRANGE` (`-limit -1`, or `0 -1`). Only when an entry is invalid (and `onInvalidItem` is
   * `'throw'`) is the list read again with its length (`MULTI LLEN LRANGE`), so the error names
   * the entry's index exactly.
   */
  async getItems(limit: number | undefined = this.limit): Promise<Item[]> {
    limit = readItemLimit('RedisSession getItems', limit);
    if (limit === 0) return [];
    return this.call('getItems', async () => {
      const start = limit === undefined ? 0 : -limit;
      const raws = await this.client.lrange(this.itemsKey, start, -1);
      const ctx = { operation: 'getItems', key: this.fullKey };
      // A full read starts at index 0; a tail read's first index is only needed for an error.
      if (limit === undefined) {
        const items = this.decodeAll(raws, 0, ctx);
        if (items instanceof SessionError) throw items;
        return items;
      }
      let items: Item[] | SessionError;
      try {
        items = this.decodeAll(raws, undefined, ctx);
      } catch {
        items = new SessionError('newer entry', { operation: 'getItems', key: this.fullKey }); // named below
      }
      if (!(items instanceof SessionError)) return items;
      const [length, slice] = await this.exec(
        'getItems',
        this.client.multi().llen(this.itemsKey).lrange(this.itemsKey, start, -1),
      );
      const again = this.decodeAll(
        slice as string[],
        (length as number) - (slice as string[]).length,
        ctx,
      );
      if (again instanceof SessionError) throw again;
      return again; // repaired meanwhile
    });
  }

  /**
   * Decodes entries read from list index `first` on (`undefined`: not known yet); returns the
   * first invalid entry's `SessionError` (unless invalid entries are skipped) instead of items.
   */
  private decodeAll(
    raws: string[],
    first: number | undefined,
    ctx: { operation: string; key: string },
  ): Item[] | SessionError {
    const items: Item[] = [];
    for (let i = 0; i < raws.length; i++) {
      const item = decodeEntry(raws[i], first === undefined ? -1 : first + i, ctx);
      if (!(item instanceof SessionError)) items.push(item);
      else if (!this.skipInvalid) return item;
    }
    return items;
  }

  /**
   * Appends `items` in one atomic script: all or nothing, never interleaved; refreshes the TTL.
   * With `options.appendId`, at most once per id for this session id (`Session` v2): a call
   * whose outcome is unknown can be sent again.
   * @throws UserError for an `appendId` that is not a non-empty string, or `items` not an array.
   * @throws SessionError for an item that is not JSON data or not a valid item (nothing written).
   */
  async addItems(items: Item[], options?: AddItemsOptions): Promise<void> {
    const appendId = readAddItemsArgs('RedisSession addItems', items, options);
    if (items.length === 0) return;
    const ctx = { operation: 'addItems', key: this.fullKey };
    const entries = items.map((item) => encodeEntry(item, ctx));
    await this.call('addItems', () =>
      this.run(ADD, appendId ?? '', Date.now(), this.ttlMs, ...entries),
    );
  }

  /**
   * Removes and returns the newest item (`undefined` when empty); refreshes the TTL. A corrupt
   * newest entry is removed too and reported as `SessionError` with its index (with
   * `onInvalidItem: 'skip'`: removed, and the next newest is popped).
   */
  async popItem(): Promise<Item | undefined> {
    return this.call('popItem', async () => {
      for (;;) {
        const reply = (await this.run(POP, Date.now(), this.ttlMs)) as [string, number] | [];
        if (reply.length === 0) return undefined;
        const ctx = { operation: 'popItem', key: this.fullKey };
        const item = decodeEntry(reply[0], reply[1], ctx);
        if (!(item instanceof SessionError)) return item;
        if (!this.skipInvalid) throw item;
      }
    });
  }

  /** History rewrite v1 (atomic compare-and-swap of the oldest items, for `CompactionSession`). */
  readonly historyRewriteVersion = 'v1' as const;

  /**
   * Replaces the oldest `expected.length` items with `replacement` in one Lua script if their
   * entries still equal `expected`'s; `false` and no change otherwise. Entries appended meanwhile,
   * by any process, stay after the replacement; applied append ids are kept (see
   * `redis-session-rewrite.ts`).
   * @throws SessionError when Redis fails or an item is not JSON-serializable.
   */
  async replaceOldestItems(
    expected: readonly Item[],
    replacement: readonly Item[],
  ): Promise<boolean> {
    if (expected.length === 0 && replacement.length === 0) return true;
    const ctx = { operation: 'replaceOldestItems', key: this.fullKey };
    const old = expected.map((item) => encodeEntry(item, ctx));
    const next = replacement.map((item) => encodeEntry(item, ctx));
    return this.call('replaceOldestItems', async () => {
      const reply = await this.run(REPLACE, old.length, Date.now(), this.ttlMs, ...old, ...next);
      return Number(reply) === 1;
    });
  }

  /** Deletes the list, the metadata hash and the applied append ids. */
  async clearSession(): Promise<void> {
    await this.call('clearSession', () =>
      this.client.del(this.itemsKey, this.metaKey, this.appendsKey),
    );
  }

  /** The metadata hash, or `undefined` when the session has never been written (or expired). */
  async getMetadata(): Promise<RedisSessionMetadata | undefined> {
    return this.call('getMetadata', async () => {
      const hash = (await this.client.hgetall(this.metaKey)) as Record<string, string>;
      if (!hash || Object.keys(hash).length === 0) return undefined;
      return {
        createdAtMs: Number(hash.created_at_ms),
        updatedAtMs: Number(hash.updated_at_ms),
        itemCount: Number(hash.item_count),
      };
    });
  }

  /** Closes the client if `fromUrl` created it; a no-op for a caller's client and when called again. */
  async close(): Promise<void> {
    if (!this.owned || this.client.status === 'end') return;
    if (this.client.status === 'ready') {
      await this.client.quit().catch(() => this.client.disconnect());
    } else this.client.disconnect();
  }

  /** The list key as Redis sees it (with the client's `keyPrefix`), for error messages. */
  private get fullKey(): string {
    return `${(this.client as unknown as RedisLikeClient).options.keyPrefix ?? ''}${this.itemsKey}`;
  }

  private call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    const client = this.client as unknown as RedisLikeClient;
    const fail = (error: unknown): never => {
      throw toSessionError(error, operation, this.fullKey, client);
    };
    // Connected (the usual case): no wait, and no promise layer but the error mapping.
    if (this.owned && this.client.status !== 'ready') {
      return waitUntilReady(this.client, this.owned.connectTimeoutMs, {
        operation,
        key: this.fullKey,
        lastError: this.owned.lastError,
      }).then(() => fn().catch(fail));
    }
    try {
      return fn().catch(fail);
    } catch (error) {
      return Promise.reject(toSessionError(error, operation, this.fullKey, client));
    }
  }

  /** Runs a script on this session's three keys (EVALSHA; EVAL when Redis does not have it yet). */
  private async run(s: { lua: string; sha: string }, ...args: (string | number)[]) {
    const keys = [this.itemsKey, this.metaKey, this.appendsKey];
    try {
      return await this.client.evalsha(s.sha, keys.length, ...keys, ...args);
    } catch (error) {
      // NOSCRIPT: the script did not run; send it whole (Redis caches it for the next EVALSHA).
      if (!String((error as Error)?.message).startsWith('NOSCRIPT')) throw error;
      return this.client.eval(s.lua, keys.length, ...keys, ...args);
    }
  }

  private async exec(operation: string, tx: ChainableCommander): Promise<unknown[]> {
    const results = await tx.exec();
    if (!results) {
      throw new SessionError(
        `Redis ${operation} transaction on "${this.fullKey}" was aborted; retry it.`,
        {
          operation,
          key: this.fullKey,
        },
      );
    }
    for (const [error] of results) if (error) throw error;
    return results.map(([, value]) => value);
  }
}
