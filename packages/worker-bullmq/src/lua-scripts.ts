/**
 * The Lua scripts of the run store. Each touches only the keys of one run (one hash tag, one
 * Redis Cluster slot) and is atomic. Every write of a worker is fenced by the run's epoch: the
 * script refuses it (and counts `rejectedWrites`) when the epoch in `meta` moved on because
 * another worker claimed the step or the run was cancelled.
 */

/**
 * KEYS meta,state,events,outbox,pending · ARGV stateJson, outboxJson|'', nPending, ids…,
 * nEvents, events…, meta pairs… → 1 created, 0 a run with this id exists.
 */
export const CREATE_RUN = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('SET', KEYS[2], ARGV[1])
if ARGV[2] ~= '' then redis.call('HSET', KEYS[4], '0', ARGV[2]) end
local i = 3
local n = tonumber(ARGV[i]); i = i + 1
if n > 0 then redis.call('SADD', KEYS[5], unpack(ARGV, i, i + n - 1)) end
i = i + n
n = tonumber(ARGV[i]); i = i + 1
for j = i, i + n - 1 do redis.call('XADD', KEYS[3], '*', 'e', ARGV[j], 'ep', '0') end
i = i + n
redis.call('HSET', KEYS[1], unpack(ARGV, i, #ARGV))
return 1
`;

/**
 * KEYS meta,state,journal,decisions · ARGV step, owner, nowMs.
 * → {'ok', epoch, takeover, stateJson, agentName, sessionId, context, journal…, '|', decisions…}
 * or {reason, status, step}. (A step reads only these meta fields: no `HGETALL` of the rest.)
 */
export const CLAIM_STEP = `
local st = redis.call('HMGET', KEYS[1], 'status', 'step', 'agentName', 'sessionId', 'context', 'epoch')
if not st[1] then return {'missing'} end
if st[1] ~= 'queued' and st[1] ~= 'running' then return {'inactive', st[1], st[2]} end
if st[2] ~= ARGV[1] then return {'stale', st[1], st[2]} end
local epoch = (tonumber(st[6]) or 0) + 1
local takeover = '0'
if st[1] == 'running' then
  takeover = '1'
  redis.call('HINCRBY', KEYS[1], 'takeovers', 1)
  redis.call('HSET', KEYS[1], 'takeoverAt', ARGV[3])
end
redis.call('HSET', KEYS[1], 'epoch', tostring(epoch), 'status', 'running', 'owner', ARGV[2], 'claimedAt', ARGV[3])
local out = {'ok', tostring(epoch), takeover, redis.call('GET', KEYS[2]) or '', st[3] or '', st[4] or '', st[5] or ''}
for _, v in ipairs(redis.call('HGETALL', KEYS[3])) do table.insert(out, v) end
table.insert(out, '|')
for _, v in ipairs(redis.call('HGETALL', KEYS[4])) do table.insert(out, v) end
return out
`;

const FENCE = `
if redis.call('HGET', KEYS[1], 'epoch') ~= ARGV[1] then
  redis.call('HINCRBY', KEYS[1], 'rejectedWrites', 1)
  return 0
end
`;

/** KEYS meta,journal · ARGV epoch, field, value[, field, value…] → 1 written, 0 fenced. */
export const JOURNAL_SET = `${FENCE}
redis.call('HSET', KEYS[2], unpack(ARGV, 2, #ARGV))
return 1
`;

/**
 * KEYS meta,events,journal · ARGV epoch, eventJson, markField, mode.
 * mode 'set': emit and set the journal mark; 'reset': emit only if the mark exists, then delete
 * it (→ 2 when there was nothing to reset); '': emit. → 1 emitted, 0 fenced.
 */
export const EMIT_EVENT = `${FENCE}
if ARGV[4] == 'reset' then
  if redis.call('HEXISTS', KEYS[3], ARGV[3]) == 0 then return 2 end
  redis.call('HDEL', KEYS[3], ARGV[3])
elseif ARGV[4] == 'set' then
  redis.call('HSET', KEYS[3], ARGV[3], ARGV[1])
end
redis.call('XADD', KEYS[2], '*', 'e', ARGV[2], 'ep', ARGV[1])
return 1
`;

/**
 * KEYS meta,state,journal,events,pending,decisions,outbox · ARGV epoch, stateJson, ttlSeconds,
 * outboxField|'', outboxJson, nMeta, meta…, nEvents, events…, nPrune, fields…, nPending, ids…,
 * nJournal, field, value… → 1 committed, 0 fenced. The step's decisions are consumed; `pending`
 * is replaced; the journal entries given are written (those the step had not sent yet).
 */
export const COMMIT_STEP = `${FENCE}
redis.call('SET', KEYS[2], ARGV[2])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[7], ARGV[4], ARGV[5]) end
local i = 6
local n = tonumber(ARGV[i]); i = i + 1
if n > 0 then redis.call('HSET', KEYS[1], unpack(ARGV, i, i + n - 1)) end
i = i + n
n = tonumber(ARGV[i]); i = i + 1
for j = i, i + n - 1 do redis.call('XADD', KEYS[4], '*', 'e', ARGV[j], 'ep', ARGV[1]) end
i = i + n
n = tonumber(ARGV[i]); i = i + 1
if n > 0 then redis.call('HDEL', KEYS[3], unpack(ARGV, i, i + n - 1)) end
i = i + n
n = tonumber(ARGV[i]); i = i + 1
redis.call('DEL', KEYS[5], KEYS[6])
if n > 0 then redis.call('SADD', KEYS[5], unpack(ARGV, i, i + n - 1)) end
i = i + n
n = tonumber(ARGV[i] or '0'); i = i + 1
if n > 0 then redis.call('HSET', KEYS[3], unpack(ARGV, i, i + n - 1)) end
local ttl = tonumber(ARGV[3])
if ttl > 0 then for k = 1, #KEYS do redis.call('EXPIRE', KEYS[k], ttl) end end
return 1
`;

/** KEYS meta · ARGV epoch, nowMs: a running step goes back to `queued` (retry, rate limit). */
export const RELEASE_STEP = `${FENCE}
if redis.call('HGET', KEYS[1], 'status') == 'running' then
  redis.call('HSET', KEYS[1], 'status', 'queued', 'updatedAt', ARGV[2])
end
return 1
`;

/**
 * KEYS meta,pending,decisions,events · ARGV callId ('' = every undecided call), decisionJson,
 * nowMs, expectedStep|''. Compare-and-set: a call is decided once; the decision that completes
 * the pause turns the run `queued` and returns {'resume', jobId, step} — to exactly one caller.
 */
export const DECIDE_CALL = `
local st = redis.call('HMGET', KEYS[1], 'status', 'step', 'jobId')
if not st[1] then return {'missing'} end
if ARGV[1] ~= '' then
  local existing = redis.call('HGET', KEYS[3], ARGV[1])
  if existing then return {'duplicate', existing, st[1]} end
end
if st[1] ~= 'paused' then return {'not_paused', st[1]} end
if ARGV[4] ~= '' and st[2] ~= ARGV[4] then return {'not_paused', 'moved_on'} end
local function decided(id)
  local d = cjson.decode(ARGV[2])
  d['type'] = 'approval_decided'
  d['callId'] = id
  redis.call('XADD', KEYS[4], '*', 'e', cjson.encode(d), 'ep', '0')
end
if ARGV[1] ~= '' then
  if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 0 then return {'unknown_call', table.concat(redis.call('SMEMBERS', KEYS[2]), ',')} end
  redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
  decided(ARGV[1])
else
  for _, id in ipairs(redis.call('SMEMBERS', KEYS[2])) do
    if redis.call('HSETNX', KEYS[3], id, ARGV[2]) == 1 then decided(id) end
  end
end
if redis.call('HLEN', KEYS[3]) >= redis.call('SCARD', KEYS[2]) then
  redis.call('HSET', KEYS[1], 'status', 'queued', 'updatedAt', ARGV[3])
  redis.call('XADD', KEYS[4], '*', 'e', '{"type":"resumed"}', 'ep', '0')
  return {'resume', st[3], st[2]}
end
return {'recorded'}
`;

/**
 * KEYS meta,pending,decisions,events,state,journal,outbox · ARGV nowMs, eventJson, ttlSeconds.
 * Bumps the epoch (fencing out a worker in the middle of a step) and ends the run.
 */
export const CANCEL_RUN = `
local st = redis.call('HGET', KEYS[1], 'status')
if not st then return {'missing'} end
if st == 'completed' or st == 'failed' or st == 'cancelled' then return {'terminal', st} end
redis.call('HINCRBY', KEYS[1], 'epoch', 1)
redis.call('HSET', KEYS[1], 'status', 'cancelled', 'updatedAt', ARGV[1])
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('XADD', KEYS[4], '*', 'e', ARGV[2], 'ep', '0')
local ttl = tonumber(ARGV[3])
if ttl > 0 then for k = 1, #KEYS do redis.call('EXPIRE', KEYS[k], ttl) end end
return {'cancelled', redis.call('HGET', KEYS[1], 'jobId') or ''}
`;

/**
 * KEYS outbox · ARGV nowMs, leaseMs. Takes the session appends to send: new ones, and ones
 * taken more than `leaseMs` ago and never acknowledged (their sender died). → {step, json, …}.
 */
export const TAKE_OUTBOX = `
local out = {}
local all = redis.call('HGETALL', KEYS[1])
local now = tonumber(ARGV[1])
for i = 1, #all, 2 do
  local f, v = all[i], all[i + 1]
  if string.sub(f, 1, 2) == 's:' then
    local sep = string.find(v, '|', 1, true)
    if now - tonumber(string.sub(v, 1, sep - 1)) > tonumber(ARGV[2]) then
      redis.call('HSET', KEYS[1], f, ARGV[1] .. '|' .. string.sub(v, sep + 1))
      table.insert(out, string.sub(f, 3))
      table.insert(out, string.sub(v, sep + 1))
    end
  else
    redis.call('HDEL', KEYS[1], f)
    redis.call('HSET', KEYS[1], 's:' .. f, ARGV[1] .. '|' .. v)
    table.insert(out, f)
    table.insert(out, v)
  end
end
return out
`;

/**
 * The batched form of a script that takes `numberOfKeys` keys: one call runs it for several
 * runs, in order, as if each were its own call (each in its own `pcall`: an error fails only its
 * own call). KEYS: the keys of every call, concatenated · ARGV: n, then per call its number of
 * args and the args → one reply per call (a failed call's is `{'\0err', message}`).
 * Standalone Redis only: the keys of different runs live in different Cluster slots.
 */
export function batchedScript(lua: string, numberOfKeys: number): string {
  return `
local function one(KEYS, ARGV)
${lua}
end
local out = {}
local a = 2
for c = 1, tonumber(ARGV[1]) do
  local keys, argv = {}, {}
  for j = 1, ${numberOfKeys} do keys[j] = KEYS[(c - 1) * ${numberOfKeys} + j] end
  local na = tonumber(ARGV[a])
  for j = 1, na do argv[j] = ARGV[a + j] end
  a = a + na + 1
  local ok, r = pcall(one, keys, argv)
  if ok then out[c] = r
  else out[c] = {'\0err', type(r) == 'table' and tostring(r.err) or tostring(r)} end
end
return out
`;
}
