-- abandon.lua: end one record left PROJECTING past its execution lease in ERROR/EXECUTION_ABANDONED,
-- as a compare-and-set. The lease is compared with the server's own clock (TIME), the clock begin.lua
-- set it by, never with the caller's. HSET comes only after HMGET has found the record, so a missing record is never
-- re-created, and HSET on an existing hash leaves its TTL as it is: no TTL command is sent. Safe to run
-- twice: a record already abandoned is returned unchanged.
--
-- KEYS[1]  the record hash            <prefix>:{<runId>}:call:<toolCallId>
-- ARGV[1]  the value of 'o' when the record is abandoned; its updatedAt is the caller's instant, never
--          compared with the lease
--
-- The record's lease is the third value of its head 'h', '<seconds>:<nine digits of nanoseconds>' in
-- the same units, written by begin.lua. It has passed when TIME is at or after it. A record without 'o'
-- is PROJECTING; with it, its status is the first five characters of 'o', and an ERROR record's code
-- comes last but for '|<raw>|-' (an ERROR record has no scope). No pattern reads a packed value: the
-- head's separators are found as plain text, and the lease's digits are read by tonumber in base 10,
-- which takes no sign, dot, exponent or space inside, its first and last characters checked as digits.
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
local head, outcome = stored[1], stored[2]
if not (head or outcome) then
  return {'NOT_FOUND'}
end
if outcome then
  if string.sub(outcome, 1, 5) == 'ERROR' and string.sub(outcome, -23, -5) == 'EXECUTION_ABANDONED'
      and string.byte(outcome, -24) == 124 then
    local reply = redis.call('HGETALL', record)
    table.insert(reply, 1, 'ALREADY_ABANDONED')
    return reply
  end
  return {'FINAL'}
end
-- Decimal digits only, or nil.
local function digits(text)
  local first, last = string.byte(text, 1), string.byte(text, -1)
  if not first or first < 48 or first > 57 or last < 48 or last > 57 then
    return nil
  end
  return tonumber(text, 10)
end
local schemaEnd = string.find(head or '', '|', 1, true)
local tokenEnd = schemaEnd and string.find(head, '|', schemaEnd + 1, true)
local leaseEnd = tokenEnd and string.find(head, '|', tokenEnd + 1, true)
local leaseSeconds, leaseNanos
if leaseEnd and leaseEnd - tokenEnd >= 12 and string.byte(head, leaseEnd - 10) == 58 then
  local seconds = string.sub(head, tokenEnd + 1, leaseEnd - 11)
  if string.byte(seconds, 1) == 45 then
    leaseSeconds = digits(string.sub(seconds, 2))
    leaseSeconds = leaseSeconds and -leaseSeconds
  else
    leaseSeconds = digits(seconds)
  end
  leaseNanos = digits(string.sub(head, leaseEnd - 9, leaseEnd - 1))
end
if not (leaseSeconds and leaseNanos) then
  return {'LEASE_INVALID'}
end
local now = redis.call('TIME')
local nowSeconds = tonumber(now[1])
local nowNanos = tonumber(now[2]) * 1000
if nowSeconds < leaseSeconds or (nowSeconds == leaseSeconds and nowNanos < leaseNanos) then
  return {'LEASE_ACTIVE'}
end
redis.call('HSET', record, 'o', ARGV[1])
local reply = redis.call('HGETALL', record)
table.insert(reply, 1, 'ABANDONED')
return reply
