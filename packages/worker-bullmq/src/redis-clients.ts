/**
 * Redis connections of the runner and the workers. The user gives ioredis options (or an
 * ioredis `Redis`/`Cluster` client, which is duplicated, never reused for blocking reads).
 * BullMQ gets the same `connection` and manages its own connections.
 */
import { Redis, type RedisOptions } from 'ioredis';

/** A client created by ioredis (standalone `Redis` or `Cluster`); typed loosely to accept both. */
export interface RedisClientLike {
  duplicate(): any;
}

/**
 * Where Redis is: ioredis options (`{ host, port, … }`), or an ioredis client to duplicate.
 * For Redis Cluster pass a `Cluster` client and a BullMQ `queue.prefix` with a hash tag
 * (e.g. `'{baton}'`); run keys already carry their own hash tag.
 */
export type DurableConnection = RedisOptions | RedisClientLike;

function isClient(connection: DurableConnection): connection is RedisClientLike {
  return typeof (connection as RedisClientLike).duplicate === 'function';
}

/**
 * A new client for `connection`; `defaults` apply to option objects only, under the user's
 * options (default: auto-pipelining on).
 */
export function createRedisClient(
  connection: DurableConnection,
  defaults: RedisOptions = { enableAutoPipelining: true },
): Redis {
  const client: Redis = isClient(connection)
    ? connection.duplicate()
    : new Redis({ ...defaults, ...connection });
  // Errors surface on the commands that fail; an unhandled 'error' event would crash the process.
  client.on('error', () => {});
  return client;
}

/** The connection BullMQ should use (options objects get `maxRetriesPerRequest: null`, as BullMQ requires). */
export function bullConnection(connection: DurableConnection): any {
  if (isClient(connection)) return connection;
  return { ...connection, maxRetriesPerRequest: null };
}

/** Closes a client, waiting for pending replies (`quit`), or drops it if that fails. */
export async function closeRedisClient(client: Redis): Promise<void> {
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}
