/**
 * History rewrite v1 of `RedisSession` (the contract is in `@baton/memory`'s
 * `session-rewrite.ts`): one Lua script compares the list's oldest entries with the expected ones
 * and, when all match, trims them and pushes the replacement onto the front — atomic in Redis, so
 * entries other processes append meanwhile stay after the replacement, and a second compaction of
 * the same entries finds them gone and changes nothing.
 *
 * KEYS[1] items list, KEYS[2] meta hash, KEYS[3] applied append ids (kept: a retried append stays
 * a no-op); ARGV[1] expected count n, ARGV[2] now (ms), ARGV[3] TTL
 * (ms, 0 = none), ARGV[4..3+n] expected entries, ARGV[4+n..] replacement entries (oldest first).
 * Returns 1 when replaced, 0 when the oldest entries differ.
 */
export const REPLACE_OLDEST_SCRIPT = `
local n = tonumber(ARGV[1])
local current = redis.call('LRANGE', KEYS[1], 0, n - 1)
if #current ~= n then return 0 end
for i = 1, n do
  if current[i] ~= ARGV[3 + i] then return 0 end
end
redis.call('LTRIM', KEYS[1], n, -1)
local r = #ARGV - 3 - n
for i = #ARGV, 4 + n, -1 do
  redis.call('LPUSH', KEYS[1], ARGV[i])
end
redis.call('HINCRBY', KEYS[2], 'item_count', r - n)
redis.call('HSET', KEYS[2], 'updated_at_ms', ARGV[2])
if tonumber(ARGV[3]) > 0 then
  for k = 1, 3 do redis.call('PEXPIRE', KEYS[k], ARGV[3]) end
end
return 1
`;
