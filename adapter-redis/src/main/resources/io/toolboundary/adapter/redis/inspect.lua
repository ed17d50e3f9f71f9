-- inspect.lua: what an operator needs to know of one key, changing nothing (no TTL is touched).
--
-- KEYS[1]  the key, any key under the store's prefix
-- KEYS[2]  for a record only: the record's raw response <prefix>:{<runId>}:raw:<toolCallId>
-- ARGV     none
--
-- Reply: {type, PTTL, MEMORY USAGE (-1 when unknown), TIME seconds, TIME microseconds, then, for a hash,
--         name, value pairs: the record's small values by their names in the record table (schema,
--         status, tool, evidence, errorCode, createdAt, updatedAt, leaseUntil; unpacked from 'h' and 'o',
--         see RecordCodec), and '#arguments', '#rawResponse', '#content', '#scope' with the length in
--         bytes of those values (0 when absent)}
local key = KEYS[1]
local kind = redis.call('TYPE', key)['ok']
local pttl = redis.call('PTTL', key)
local memory = redis.call('MEMORY', 'USAGE', key)
local now = redis.call('TIME')
local out = {kind, tostring(pttl), tostring(memory or -1), now[1], now[2]}
local function put(name, value)
  if value and #value > 0 then
    out[#out + 1] = name
    out[#out + 1] = value
  end
end
if kind == 'hash' then
  local stored = redis.call('HMGET', key, 'h', 'o')
  local scope = ''
  if stored[1] then
    local schema, lease, created, tool = string.match(stored[1], '^([^|]*)|[^|]*|([^|]*)|([^|]*)|([^|]*)|')
    put('schema', schema)
    put('tool', tool)
    put('createdAt', created)
    put('leaseUntil', lease)
    if not stored[2] then
      put('status', 'PROJECTING')
    end
  end
  if stored[2] then
    local status, updated, code, mark = string.match(stored[2], '^([^|]*)|([^|]*)|([^|]*)|[^|]*|(.*)$')
    put('status', status)
    put('updatedAt', updated)
    if status == 'ERROR' then
      put('evidence', 'ERROR')
      put('errorCode', code)
    else
      put('evidence', code)
    end
    scope = string.sub(mark or '', 2)
  end
  out[#out + 1] = '#arguments'
  out[#out + 1] = tostring(redis.call('HSTRLEN', key, 'a'))
  out[#out + 1] = '#rawResponse'
  out[#out + 1] = tostring(KEYS[2] and string.match(stored[2] or '', '^[^|]*|[^|]*|[^|]*|1|')
      and redis.call('STRLEN', KEYS[2]) or 0)
  out[#out + 1] = '#content'
  out[#out + 1] = tostring(redis.call('HSTRLEN', key, 'c'))
  out[#out + 1] = '#scope'
  out[#out + 1] = tostring(#scope)
end
return out
