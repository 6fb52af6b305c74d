/**
 * Test helpers: the shared real-redis-server helper from @baton/testing (AOF on for the
 * restart tests) and the job-count helper these tests need.
 */
import { processAlive, startTestRedis, type TestRedis, waitFor } from '@baton/testing';

export { type TestRedis, waitFor };

/** A real redis-server on a free 127.0.0.1 port (`aof: true` keeps every write across restarts). */
export function startRedisServer(options: { aof?: boolean } = {}): Promise<TestRedis> {
  return startTestRedis(options);
}

/** True while `pid` runs (a zombie counts as gone). */
export const alive = processAlive;

/**
 * The queue's job counts once no job is active: the job that paused or finished a run completes
 * right after its commit, so a count taken at that instant may still see it active.
 */
export async function settledJobCounts<T extends Record<string, number>>(
  count: () => Promise<T>,
  timeoutMs = 3000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let counts = await count();
  while ((counts.active ?? 0) > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    counts = await count();
  }
  return counts;
}
