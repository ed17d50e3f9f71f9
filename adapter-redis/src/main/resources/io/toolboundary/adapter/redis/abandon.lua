-- abandon.lua: end one record left PROJECTING past its execution lease in ERROR/EXECUTION_ABANDONED, as
-- a compare-and-set on the token the caller read. The lease is measured by the server's own clock: the
-- record holds the remaining TTL ('leaseLeft', in milliseconds) at which its lease ends, and PTTL, the
-- server's count down to the expiry it set at creation, says how far that is. A harness whose clock jumps
-- ahead cannot end a call that is still running. SET ... XX KEEPTTL replaces the record, keeping its TTL,
-- and creates nothing. Safe to run twice.
--
-- With export on, the record made final is appended to the outbox in the same step (ABANDONED only: XADD
-- <outbox> * r <runId> c <toolCallId>, with 'v' and the ERROR record when entries carry records), one
-- command more. Without KEYS[3] the script sends exactly the commands it sends without an outbox.
--
-- KEYS[1]  the record, a string       <prefix>:{<runId>}:call:<toolCallId>
-- KEYS[2]  the attempt's pending key   <prefix>:{<runId>}:pending:<token>:<toolCallId>, deleted with the
--          abandonment, so that a late completion of the attempt writes nothing
-- KEYS[3]  with export on only: the outbox, a stream   <prefix>:outbox
-- ARGV[1]  the token of the attempt whose record the caller read
-- ARGV[2]  '|<updatedAt>|EXECUTION_ABANDONED|': what the ERROR record holds where a PROJECTING one holds
--          '|||'; its updatedAt is the caller's instant, never compared with the lease
-- ARGV[3]  with export on only: the run id
-- ARGV[4]  with export on only: the tool_call_id
-- ARGV[5]  with export on only: '1' when the entry carries the final record, else '0'
--
-- Reply, a list whose first element is the outcome:
--   {'ABANDONED', record}   the record is now ERROR/EXECUTION_ABANDONED: the record
--   {'FINAL', record}       it is final already: the record, unchanged
--   {'NOT_FOUND'}           there is no record (expired or never created)
--   {'TOKEN_MISMATCH'}      the record now belongs to another attempt than the one read
--   {'LEASE_ACTIVE'}        it is PROJECTING and its lease has not passed
--   {'LEASE_INVALID'}       its lease is not one this store writes
--   {'RECORD_INVALID'}      the record key holds another type
local token = ARGV[1]
local value = redis.pcall('GET', KEYS[1])
if type(value) == 'table' then
  return {'RECORD_INVALID'}
end
if not value then
  return {'NOT_FOUND'}
end
if string.sub(value, 5, 4 + #token) ~= token or string.byte(value, 5 + #token) ~= 124 then
  return {'TOKEN_MISMATCH'}
end
if string.byte(value, 3) ~= 80 then
  return {'FINAL', value}
end
-- '<schema>|P|<token>|<leaseLeft>|<createdAt>|||...': the lease's digits, read by tonumber in base 10,
-- which takes no sign, dot, exponent or space inside, its first and last characters checked as digits.
local leaseEnd = string.find(value, '|', 6 + #token, true)
local lease = leaseEnd and string.sub(value, 6 + #token, leaseEnd - 1) or ''
local first, last = string.byte(lease, 1), string.byte(lease, -1)
local leaseLeft = tonumber(lease, 10)
local open = string.find(value, '|||', 5 + #token, true)
if not (first and first >= 48 and first <= 57 and last >= 48 and last <= 57 and leaseLeft and open) then
  return {'LEASE_INVALID'}
end
if redis.call('PTTL', KEYS[1]) > leaseLeft then
  return {'LEASE_ACTIVE'}
end
local abandoned = string.sub(value, 1, 2) .. 'E' .. string.sub(value, 4, open - 1) .. ARGV[2] .. string.sub(value, open + 3)
redis.call('SET', KEYS[1], abandoned, 'XX', 'KEEPTTL')
redis.call('DEL', KEYS[2])
if KEYS[3] then
  if ARGV[5] == '1' then
    redis.call('XADD', KEYS[3], '*', 'r', ARGV[3], 'c', ARGV[4], 'v', abandoned)
  else
    redis.call('XADD', KEYS[3], '*', 'r', ARGV[3], 'c', ARGV[4])
  end
end
return {'ABANDONED', abandoned}
