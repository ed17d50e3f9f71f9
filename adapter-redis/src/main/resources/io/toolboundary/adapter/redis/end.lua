-- end.lua: end the record an attempt began, by the attempt's token alone, in ERROR, as a
-- compare-and-set from PROJECTING. For an attempt whose begin or complete got no definite answer.
-- HSET comes only after HMGET has found the record, so a missing record is never created, and HSET
-- on an existing hash leaves its TTL as it is. When no record exists, the script leaves an end mark
-- for the attempt (with a TTL set once, here), so that a late copy of its begin, still on its way to
-- the server, finds it and creates nothing. Safe to run twice.
--
-- KEYS[1]  the record hash            <prefix>:{<runId>}:call:<toolCallId>
-- KEYS[2]  the attempt's end mark      <prefix>:{<runId>}:ended:<token>
-- KEYS[3]  the attempt's pending raw  <prefix>:{<runId>}:pending:<token>:<toolCallId>, deleted when the
--          record is ended or missing
-- KEYS[4]  the record's raw response  <prefix>:{<runId>}:raw:<toolCallId>, read when the record is final
--          with a raw response
-- ARGV[1]  the attempt token
-- ARGV[2]  the end mark's TTL in milliseconds
-- ARGV[3]  the value of 'o' when the record is ended
--
-- Reply, a list whose first element is the outcome:
--   {'ENDED', field, value, ...}     the record was PROJECTING and is now ERROR: all its fields
--   {'FINAL', field, value, ...}     it is final already with this token: all its fields, unchanged, and
--                                    'r' with the raw response when it has one
--   {'NOT_FOUND'}                    there is no record (expired, or never created); the end mark is left
--   {'TOKEN_MISMATCH'}               the record belongs to another attempt
--
-- No EXISTS: every record has a head, so a reply of two nils is a missing key (and a key of another
-- type fails HMGET with WRONGTYPE). A record without 'o' is PROJECTING. No pattern reads a packed value:
-- the token is compared in place, after the one-character schema of 'h'; a READY record has a raw
-- response, and an ERROR record's flag is the third character from the end of 'o' (its scope is '-').
local record = KEYS[1]
local stored = redis.call('HMGET', record, 'h', 'o')
local head, packed = stored[1], stored[2]
if not (head or packed) then
  redis.call('DEL', KEYS[3])
  if redis.call('EXISTS', KEYS[2]) == 0 then
    redis.call('HSET', KEYS[2], 'token', ARGV[1])
    redis.call('PEXPIRE', KEYS[2], ARGV[2])
  end
  return {'NOT_FOUND'}
end
local token = ARGV[1]
if not head or string.sub(head, 3, #token + 2) ~= token or string.byte(head, #token + 3) ~= 124 then
  return {'TOKEN_MISMATCH'}
end
local outcome = 'FINAL'
if not packed then
  redis.call('HSET', record, 'o', ARGV[3])
  redis.call('DEL', KEYS[3])
  outcome = 'ENDED'
end
local reply = redis.call('HGETALL', record)
if packed and (string.sub(packed, 1, 5) == 'READY' or string.sub(packed, -3, -3) == '1') then
  local raw = redis.call('GET', KEYS[4])
  if raw then
    reply[#reply + 1] = 'r'
    reply[#reply + 1] = raw
  end
end
table.insert(reply, 1, outcome)
return reply
