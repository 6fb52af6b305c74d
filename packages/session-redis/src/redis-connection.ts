/**
 * Connection handling of `RedisSession`: the options of clients it owns (fail fast when Redis is
 * down instead of queueing commands), waiting for a reconnect, and turning client errors into
 * `SessionError`s that say what to do.
 */
import { BatonError, SessionError } from '@baton/kernel';
import { Redis, type RedisOptions } from 'ioredis';

/** A standalone or cluster ioredis client (the peer `ioredis` package, 5.x or 6.x). */
export type RedisLikeClient = {
  status: string;
  options: { keyPrefix?: string; host?: string; port?: number };
  once(event: string, listener: (...args: any[]) => void): unknown;
  off(event: string, listener: (...args: any[]) => void): unknown;
};

/** The ioredis options of a client `RedisSession.fromUrl` creates; `overrides` win. */
export function ownedClientOptions(
  connectTimeoutMs: number,
  overrides: RedisOptions = {},
): RedisOptions {
  return {
    // Connect on the first operation, so constructing a session never throws or logs.
    lazyConnect: true,
    // While disconnected, reject commands at once instead of queueing them until Redis returns.
    enableOfflineQueue: false,
    // Reject in-flight commands on the first disconnect instead of resending them later (a
    // resent MULTI could append the same items twice after the caller saw an error).
    maxRetriesPerRequest: 0,
    connectTimeout: connectTimeoutMs,
    // Keep reconnecting in the background, at most 500 ms apart: a call made while Redis is down
    // fails at the next failed attempt, and one made after Redis returns waits for the reconnect.
    retryStrategy: (times: number) => Math.min(50 * times, 500),
    ...overrides,
  };
}

/** Creates an owned client for `url` that logs no unhandled `error` events (they surface per call). */
export function createOwnedClient(
  url: string,
  options: RedisOptions,
): { client: Redis; lastError: () => Error | undefined } {
  const client = new Redis(url, options);
  let last: Error | undefined;
  client.on('error', (error: Error) => {
    last = error;
  });
  client.on('ready', () => {
    last = undefined;
  });
  return { client, lastError: () => last };
}

/**
 * Resolves when `client` is ready: connects a lazy client, or waits for a reconnect in progress.
 * @throws SessionError (with `operation` and `key`) when Redis is not reachable within `timeoutMs`
 *   or the client was closed.
 */
export async function waitUntilReady(
  client: Redis,
  timeoutMs: number,
  ctx: { operation: string; key: string; lastError: () => Error | undefined },
): Promise<void> {
  if (client.status === 'ready') return;
  if (client.status === 'end') {
    throw new SessionError(
      `Redis ${ctx.operation} failed for key "${ctx.key}": this RedisSession was closed. Create a new session (RedisSession.fromUrl) to keep going.`,
      { operation: ctx.operation, key: ctx.key },
    );
  }
  // Wait for the connection in progress (or the next reconnect attempt): ready → go on; a
  // failed attempt, the end of the client or the timeout → fail now instead of queueing.
  await new Promise<void>((resolve, reject) => {
    const done = (error?: Error) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      client.off('error', onError);
      client.off('end', onEnd);
      if (error) reject(error);
      else resolve();
    };
    const onReady = () => done();
    const onError = (error: Error) => done(error);
    const onEnd = () => done(ctx.lastError() ?? new Error('the connection was closed'));
    const timer = setTimeout(
      () => done(ctx.lastError() ?? new Error(`no connection within ${timeoutMs} ms`)),
      timeoutMs,
    );
    client.once('ready', onReady);
    client.once('error', onError);
    client.once('end', onEnd);
    if (client.status === 'wait') client.connect().catch(() => {});
  }).catch((error) => {
    throw toSessionError(error, ctx.operation, ctx.key, client);
  });
}

/** Wraps any non-Baton error of a Redis call into a `SessionError` naming operation and key. */
export function toSessionError(
  error: unknown,
  operation: string,
  key: string,
  client: RedisLikeClient,
): BatonError {
  if (BatonError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const where = client.options.host
    ? ` at ${client.options.host}:${client.options.port ?? 6379}`
    : '';
  return new SessionError(
    `Redis ${operation} failed for key "${key}": ${message}. Make sure Redis is running and reachable${where}, then retry; an addItems is all-or-nothing, and one sent with an appendId can be re-sent safely (without one, read the session before re-sending a call whose outcome is unknown).`,
    { operation, key, cause: error },
  );
}
