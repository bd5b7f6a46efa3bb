/**
 * `Store.add` in Redis: MemoryStore's `add` (src/core/store/store.ts), run as one script so
 * that no other client acts between the read and the write. The counter is a string value,
 * the total as `%.17g` (which reads back as the same number).
 *
 * What a store gives back is untrusted: a key of another type (a hash, a list: a hand edit,
 * another app) is deleted first, so it is a new key; a value that is not a plain finite decimal
 * (`counterValue` in store-rules.ts: the same pattern) counts as 0 and keeps its expiry.
 *
 * A new key is written with `PX ttlMs`. An existing one keeps its expiry: the script sets it
 * again with `PX` of what its `PTTL` says is left (or none, for a key that had none), since
 * `SET … KEEPTTL` needs Redis 6 and the store takes Redis 5. A total that would not be a
 * finite number is refused, as MemoryStore does.
 *
 * KEYS[1] the counter; ARGV amount, limit (`inf` for none), ttlMs. Answers `{ added (1|0),
 * total (a string: a Lua number in a reply would be cut to an integer) }`.
 */
export const ADD_SCRIPT = `
local amount, ttl = tonumber(ARGV[1]), tonumber(ARGV[3])
local limit = math.huge
if ARGV[2] ~= 'inf' then limit = tonumber(ARGV[2]) end
if not (amount and limit and ttl) then return redis.error_reply('ERR counter arguments must be numbers') end
local kind = redis.call('TYPE', KEYS[1]).ok
if kind ~= 'string' and kind ~= 'none' then redis.call('DEL', KEYS[1]) end
local saved = redis.call('GET', KEYS[1])
local total = 0
if saved and string.find(saved, '^[-+]?[%d.]+[eE]?[-+]?%d*$') then
  local n = tonumber(saved)
  if n and n == n and n >= 0 and n < math.huge then total = n end
end
local after = total + amount
if (amount >= 0 and after > limit) or after ~= after or after == math.huge or after == -math.huge then
  return { 0, string.format('%.17g', total) }
end
local value = string.format('%.17g', after)
if not saved then
  redis.call('SET', KEYS[1], value, 'PX', string.format('%d', math.min(2 ^ 52, math.max(1, math.ceil(ttl)))))
else
  local left = redis.call('PTTL', KEYS[1])
  if left > 0 then redis.call('SET', KEYS[1], value, 'PX', string.format('%d', left)) else redis.call('SET', KEYS[1], value) end
end
return { 1, value }
`;
