-- complete.lua: compare-and-set one record from PROJECTING to READY or ERROR, by token. HSET on an
-- existing hash leaves its TTL as it is; a missing record is never re-created. Safe to run twice with
-- the same token (a client retry).
--
-- KEYS[1]  the record hash            <prefix>:{<runId>}:call:<toolCallId>
-- ARGV[1]  the attempt token
-- ARGV[2]  the final status, READY or ERROR
-- ARGV[3]  the tool name the record must have
-- ARGV[4]  the request fingerprint the record must have
-- ARGV[5]  the creation instant the record must have
-- ARGV[6]  the SHA-1 (hex) of the request the record must have
-- ARGV[7..] the final fields and values, in pairs
--
-- The record's request is compared by its SHA-1, stored once by begin.lua as field 'requestSha1'.
--
-- Reply, a list whose first element is the outcome:
--   {'APPLIED'}                               the record is now final
--   {'ALREADY_APPLIED', field, value, ...}    it already has this status and token: all its fields
--   {'NOT_FOUND'}                             there is no record (expired or never created)
--   {'TOKEN_MISMATCH'}                        the record belongs to another attempt
--   {'CONFLICT'}                              it is final with another status, or is another invocation
--
-- Cost: the usual call sends two commands, HMGET and HSET. No EXISTS: every record has a token, so
-- a reply of six nils is a missing key (and a key of another type fails HMGET with WRONGTYPE).
local record = KEYS[1]
local stored = redis.call('HMGET', record, 'token', 'status', 'tool', 'fingerprint', 'createdAt', 'requestSha1')
if not (stored[1] or stored[2] or stored[3] or stored[4] or stored[5] or stored[6]) then
  return {'NOT_FOUND'}
end
if stored[1] ~= ARGV[1] then
  return {'TOKEN_MISMATCH'}
end
if stored[2] == ARGV[2] then
  local reply = redis.call('HGETALL', record)
  table.insert(reply, 1, 'ALREADY_APPLIED')
  return reply
end
if stored[2] ~= 'PROJECTING' or stored[3] ~= ARGV[3] or stored[4] ~= ARGV[4] or stored[5] ~= ARGV[5]
    or stored[6] ~= ARGV[6] then
  return {'CONFLICT'}
end
redis.call('HSET', record, unpack(ARGV, 7))
return {'APPLIED'}
