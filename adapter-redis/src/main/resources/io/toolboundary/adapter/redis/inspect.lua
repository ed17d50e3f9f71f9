-- inspect.lua: what an operator needs to know of one key, changing nothing (no TTL is touched).
--
-- KEYS[1]  the key, any key under the store's prefix
-- KEYS[2]  for a record only: the record's raw response <prefix>:{<runId>}:raw:<toolCallId>
-- ARGV     none
--
-- Reply: {type, PTTL, MEMORY USAGE (-1 when unknown), TIME seconds, TIME microseconds, then, for a hash,
--         'h', 'o' and 'f' with their packed values when present (unpacked by the caller, see RecordCodec),
--         and '#arguments', '#rawResponse', '#content' with the length in bytes of those values (0 when
--         absent)}. A READY record has a raw response; an ERROR record's flag is the third character from
--         the end of 'o' (its scope is '-'). No pattern reads a packed value.
local key = KEYS[1]
local kind = redis.call('TYPE', key)['ok']
local pttl = redis.call('PTTL', key)
local memory = redis.call('MEMORY', 'USAGE', key)
local now = redis.call('TIME')
local out = {kind, tostring(pttl), tostring(memory or -1), now[1], now[2]}
if kind == 'hash' then
  local stored = redis.call('HMGET', key, 'h', 'o', 'f')
  local head, outcome, failure = stored[1], stored[2], stored[3]
  if head then
    out[#out + 1] = 'h'
    out[#out + 1] = head
  end
  if outcome then
    out[#out + 1] = 'o'
    out[#out + 1] = outcome
  end
  if failure then
    out[#out + 1] = 'f'
    out[#out + 1] = failure
  end
  local raw = 0
  if KEYS[2] and outcome and (string.sub(outcome, 1, 5) == 'READY' or string.sub(outcome, -3, -3) == '1') then
    raw = redis.call('STRLEN', KEYS[2])
  end
  out[#out + 1] = '#arguments'
  out[#out + 1] = tostring(redis.call('HSTRLEN', key, 'a'))
  out[#out + 1] = '#rawResponse'
  out[#out + 1] = tostring(raw)
  out[#out + 1] = '#content'
  out[#out + 1] = tostring(redis.call('HSTRLEN', key, 'c'))
end
return out
