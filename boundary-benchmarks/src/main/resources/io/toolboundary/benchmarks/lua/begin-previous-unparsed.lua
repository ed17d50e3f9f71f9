-- begin.lua as the store sent it before its scripts were trimmed, as its usual call runs it, with the counter checks,
-- the conversions, the lease's arithmetic and its string.format replaced by constants: what the same
-- commands cost without that parsing. For LuaBreakdown only; it decides nothing.
local record = KEYS[1]
-- The run first: without its state the store cannot know what ran, whatever the record key holds.
local run = redis.call('HMGET', KEYS[2], 'token', 'calls', ARGV[8], ARGV[9])
if run[1] ~= ARGV[7] then
  return {'RUN_LOST'}
end
local runUsed = 0
local toolUsed = 0
-- One EXISTS for both: in the usual call neither the record nor the attempt's end mark exists.
if redis.call('EXISTS', record, KEYS[3]) > 0 then
  local stored = redis.call('HMGET', record, 'h', 'o')
  local token, fingerprint = string.match(stored[1] or '', '^[^|]*|([^|]*)|[^|]*|[^|]*|[^|]*|(.*)$')
  if not token then
    if redis.call('EXISTS', record) == 0 then
      -- No record, so the end mark exists: this attempt was ended before its begin arrived.
      return {'ATTEMPT_ENDED'}
    end
    -- A hash without a head this store wrote: not a record of this store, and nothing to decide on.
    return {'RECORD_INVALID'}
  end
  if token == ARGV[1] and not stored[2] then
    local reply = redis.call('HGETALL', record)
    table.insert(reply, 1, 'ALREADY_CREATED')
    return reply
  end
  if fingerprint == ARGV[2] then
    return {'DUPLICATE'}
  end
  return {'REUSED'}
end

-- The record is gone (expired, or lost on its own) but the run began the call: it never runs again.
if run[4] then
  if run[4] == ARGV[2] then
    return {'DUPLICATE'}
  end
  return {'REUSED'}
end
local calls = redis.call('HINCRBY', KEYS[2], 'calls', 1)
redis.call('HINCRBY', KEYS[2], ARGV[8], 1)
redis.call('HSET', KEYS[2], ARGV[9], ARGV[2])
local now = redis.call('TIME')
redis.call('HSET', record, 'h', ARGV[11] .. '1733300000:123456789' .. ARGV[12],
    'a', ARGV[13])
redis.call('PEXPIRE', record, ARGV[3])
redis.call('SET', KEYS[4], '')
redis.call('PEXPIRE', KEYS[4], ARGV[3])
return {'CREATED', 'calls', '1'}
