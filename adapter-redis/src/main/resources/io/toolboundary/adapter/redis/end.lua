-- end.lua: end the record an attempt began, by the attempt's token alone, in ERROR, as a compare-and-set
-- from PROJECTING. For an attempt whose begin or complete got no definite answer. SET ... XX KEEPTTL
-- replaces the record it found, keeping its TTL, and creates nothing. When no record exists, the script
-- marks the attempt as ended in its run's state ('e:<toolCallId>'), so that a late copy of its begin,
-- still on its way to the server, finds the mark and creates nothing. Safe to run twice.
--
-- With export on, the record made final is appended to the outbox in the same step (ENDED only: XADD
-- <outbox> * r <runId> c <toolCallId>, with 'v' and the ERROR record when entries carry records), one
-- command more. Without KEYS[4] the script sends exactly the commands it sends without an outbox.
--
-- KEYS[1]  the record, a string       <prefix>:{<runId>}:call:<toolCallId>
-- KEYS[2]  the run's state            <prefix>:{<runId>}:run
-- KEYS[3]  the attempt's pending key   <prefix>:{<runId>}:pending:<token>:<toolCallId>, deleted
-- KEYS[4]  with export on only: the outbox, a stream   <prefix>:outbox
-- ARGV[1]  the attempt token
-- ARGV[2]  the call's end mark field, 'e:<toolCallId>'
-- ARGV[3]  '|<updatedAt>|<error code>|': what an ERROR record holds where a PROJECTING one holds '|||'
-- ARGV[4]  with export on only: the run id
-- ARGV[5]  with export on only: the tool_call_id
-- ARGV[6]  with export on only: '1' when the entry carries the final record, else '0'
--
-- Reply, a list whose first element is the outcome:
--   {'ENDED', record}     the record was PROJECTING and is now ERROR: the record
--   {'FINAL', record}     it is final already with this token: the record, unchanged
--   {'NOT_FOUND'}         there is no record (expired, or never created); the end mark is left when the
--                         run's state exists
--   {'TOKEN_MISMATCH'}    the record belongs to another attempt
--   {'RECORD_INVALID'}    the record key holds another type, or a PROJECTING record this store did not write
local token = ARGV[1]
redis.call('DEL', KEYS[3])
local value = redis.pcall('GET', KEYS[1])
if type(value) == 'table' then
  return {'RECORD_INVALID'}
end
if not value then
  -- HSET on a missing hash would create it without a TTL: mark only a run whose state exists.
  if redis.call('EXISTS', KEYS[2]) == 1 then
    -- The tokens of every attempt of this call ended so, separated by spaces.
    local marked = redis.call('HGET', KEYS[2], ARGV[2])
    if not marked then
      redis.call('HSET', KEYS[2], ARGV[2], token)
    elseif not string.find(' ' .. marked .. ' ', ' ' .. token .. ' ', 1, true) then
      redis.call('HSET', KEYS[2], ARGV[2], marked .. ' ' .. token)
    end
  end
  return {'NOT_FOUND'}
end
if string.sub(value, 5, 4 + #token) ~= token or string.byte(value, 5 + #token) ~= 124 then
  return {'TOKEN_MISMATCH'}
end
if string.byte(value, 3) ~= 80 then
  return {'FINAL', value}
end
local open = string.find(value, '|||', 5 + #token, true)
if not open then
  return {'RECORD_INVALID'}
end
local ended = string.sub(value, 1, 2) .. 'E' .. string.sub(value, 4, open - 1) .. ARGV[3] .. string.sub(value, open + 3)
redis.call('SET', KEYS[1], ended, 'XX', 'KEEPTTL')
if KEYS[4] then
  if ARGV[6] == '1' then
    redis.call('XADD', KEYS[4], '*', 'r', ARGV[4], 'c', ARGV[5], 'v', ended)
  else
    redis.call('XADD', KEYS[4], '*', 'r', ARGV[4], 'c', ARGV[5])
  end
end
return {'ENDED', ended}
