-- abandon.lua: end one record left PROJECTING past its execution lease in ERROR/EXECUTION_ABANDONED,
-- as a compare-and-set. The lease is compared with the server's own clock (TIME), the clock begin.lua
-- set it by, never with the caller's. HSET comes only after HMGET has found the record, so a missing record is never
-- re-created, and HSET on an existing hash leaves its TTL as it is: no TTL command is sent. Safe to run
-- twice: a record already abandoned is returned unchanged.
--
-- KEYS[1]  the record hash            <prefix>:{<runId>}:call:<toolCallId>
-- ARGV[1..] the ERROR fields and values, in pairs ('o' and its value); its updatedAt is the caller's
--           instant, never compared with the lease
--
-- The record's lease is the third value of its head 'h', '<seconds>:<nine digits of nanoseconds>' in
-- the same units, written by begin.lua. It has passed when TIME is at or after it. Its status and error
-- code are the first and third values of 'o'; a record without 'o' is PROJECTING.
--
-- Reply, a list whose first element is the outcome:
--   {'ABANDONED', field, value, ...}          the record is now ERROR/EXECUTION_ABANDONED: all its fields
--   {'ALREADY_ABANDONED', field, value, ...}  it already was: all its fields, unchanged
--   {'NOT_FOUND'}                             there is no record (expired or never created)
--   {'FINAL'}                                 it is READY, or ERROR with another code
--   {'LEASE_ACTIVE'}                          it is PROJECTING and its lease has not passed
--   {'LEASE_INVALID'}                         its lease field is missing or not one this store writes
--
-- No EXISTS: every record has a head, so a reply of two nils is a missing key (and a key of another
-- type fails HMGET with WRONGTYPE).
local record = KEYS[1]
local stored = redis.call('HMGET', record, 'h', 'o')
if not (stored[1] or stored[2]) then
  return {'NOT_FOUND'}
end
if stored[2] then
  local status, code = string.match(stored[2], '^([^|]*)|[^|]*|([^|]*)|')
  if status == 'ERROR' and code == 'EXECUTION_ABANDONED' then
    local reply = redis.call('HGETALL', record)
    table.insert(reply, 1, 'ALREADY_ABANDONED')
    return reply
  end
  return {'FINAL'}
end
local leaseSeconds, leaseNanos = string.match(stored[1] or '', '^[^|]*|[^|]*|(%-?%d+):(%d%d%d%d%d%d%d%d%d)|')
if not leaseSeconds then
  return {'LEASE_INVALID'}
end
leaseSeconds = tonumber(leaseSeconds)
leaseNanos = tonumber(leaseNanos)
local now = redis.call('TIME')
local nowSeconds = tonumber(now[1])
local nowNanos = tonumber(now[2]) * 1000
if nowSeconds < leaseSeconds or (nowSeconds == leaseSeconds and nowNanos < leaseNanos) then
  return {'LEASE_ACTIVE'}
end
redis.call('HSET', record, unpack(ARGV, 1))
local reply = redis.call('HGETALL', record)
table.insert(reply, 1, 'ABANDONED')
return reply
