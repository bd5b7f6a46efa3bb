/**
 * `Store.take` in Redis: src/core/rate-bucket.ts's `takeFromBucket`, line for line, run as
 * one script so that no other client acts between the read and the write. The time is the
 * server's (TIME), so every instance shares one clock. The bucket is a string value
 * `"<level> <at>"`, as the memory store keeps it, kept until it would be full again.
 *
 * A key of another type (a hash, a list: a hand edit, another app) is deleted first, and a
 * bucket no take could have left (BELIEVED_MS in rate-bucket.ts) counts as a full one: what
 * a store gives back is untrusted.
 *
 * KEYS[1] the bucket; ARGV amount, perMs, capacity, maxWaitMs, and (tests only) a time in ms
 * to use instead of the server's. Answers `{ taken (1|0), waitMs (a string: it may pass 2^63) }`.
 */
export const BUCKET_SCRIPT = `
local amount, perMs, capacity, maxWait = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if not (amount and perMs and capacity and maxWait) then return redis.error_reply('ERR bucket arguments must be numbers') end
local now = tonumber(ARGV[5])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
end
local level, at = capacity, now
local kind = redis.call('TYPE', KEYS[1]).ok
if kind ~= 'string' and kind ~= 'none' then redis.call('DEL', KEYS[1]) end
local saved = redis.call('GET', KEYS[1])
if saved then
  local l, a = string.match(saved, '^(%S+) (%S+)$')
  l, a = tonumber(l), tonumber(a)
  if l and a and l <= capacity and l >= -(capacity + perMs * 3600000) and a <= now + 3600000 then
    at = math.max(now, a)
    level = math.min(capacity, l + (at - a) * perMs)
  end
end
local taken, wait = 1, 0
if amount < 0 then
  level = math.min(capacity, level - amount)
else
  local after = level - amount
  if after < 0 then wait = math.ceil(-after / perMs) end
  if wait > maxWait then taken = 0 else level = after end
end
if taken == 1 then
  local ttl = math.min(2 ^ 52, math.max(1, math.ceil((capacity - level) / perMs)))
  redis.call('SET', KEYS[1], string.format('%.17g %.17g', level, at), 'PX', string.format('%d', ttl))
end
return { taken, string.format('%.17g', wait) }
`;
