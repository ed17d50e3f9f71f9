-- inspect.lua: what an operator needs to know of one key, changing nothing (no TTL is touched).
--
-- KEYS[1]  the key, any key under the store's prefix
-- ARGV     none
--
-- Reply: {type, PTTL, MEMORY USAGE (-1 when unknown), TIME seconds, TIME microseconds, then, for a hash,
--         name, value pairs: the small record fields as they are, and '#arguments', '#raw', '#content',
--         '#scope' with the length in bytes of those fields (0 when absent)}
local key = KEYS[1]
local kind = redis.call('TYPE', key)['ok']
local pttl = redis.call('PTTL', key)
local memory = redis.call('MEMORY', 'USAGE', key)
local now = redis.call('TIME')
local out = {kind, tostring(pttl), tostring(memory or -1), now[1], now[2]}
if kind == 'hash' then
  local names = {'schema', 'status', 'tool', 'evidence', 'errorCode', 'createdAt', 'updatedAt', 'leaseUntil'}
  local values = redis.call('HMGET', key, unpack(names))
  for i, name in ipairs(names) do
    if values[i] then
      out[#out + 1] = name
      out[#out + 1] = values[i]
    end
  end
  for _, name in ipairs({'arguments', 'rawResponse', 'content', 'scope'}) do
    out[#out + 1] = '#' .. name
    out[#out + 1] = tostring(redis.call('HSTRLEN', key, name))
  end
end
return out
