-- inspect.lua: what an operator needs to know of one key, changing nothing (no TTL is touched).
--
-- KEYS[1]  the key, any key under the store's prefix
-- ARGV     none
--
-- Reply: {type, PTTL, MEMORY USAGE (-1 when unknown), TIME seconds, TIME microseconds, then, for a string,
--         its length in bytes, its first 1,024 bytes (a record's head, which RecordCodec reads) and its last
--         1,024 bytes (where a failed record keeps why it failed); the request, the raw response and the
--         agent's content between them are not shown}.
local key = KEYS[1]
local kind = redis.call('TYPE', key)['ok']
local pttl = redis.call('PTTL', key)
local memory = redis.call('MEMORY', 'USAGE', key)
local now = redis.call('TIME')
local out = {kind, tostring(pttl), tostring(memory or -1), now[1], now[2]}
if kind == 'string' then
  out[#out + 1] = tostring(redis.call('STRLEN', key))
  out[#out + 1] = redis.call('GETRANGE', key, 0, 1023)
  out[#out + 1] = redis.call('GETRANGE', key, -1024, -1)
end
return out
