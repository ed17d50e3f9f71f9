-- complete.lua: compare-and-set one record from PROJECTING to READY or ERROR, by token. The token proves
-- the attempt: the script checks it and the status, nothing else, and receives only what the completion
-- adds. HSET on an existing hash leaves its TTL as it is; a missing record is never re-created. Safe to
-- run twice with the same token (a client retry).
--
-- KEYS[1]  the record hash            <prefix>:{<runId>}:call:<toolCallId>
-- ARGV[1]  the attempt token
-- ARGV[2]  the final status, READY or ERROR
-- ARGV[3]  the bytes the store's record cap leaves for what begin wrote (tool, arguments, fingerprint),
--          or '' when the store has no cap
-- ARGV[4..] the final fields and values, in pairs ('o', then 'c' and 'r' when the outcome has them)
--
-- Reply, a list whose first element is the outcome:
--   {'APPLIED'}                               the record is now final
--   {'ALREADY_APPLIED', field, value, ...}    it already has this status and token: all its fields
--   {'NOT_FOUND'}                             there is no record (expired or never created)
--   {'TOKEN_MISMATCH'}                        the record belongs to another attempt
--   {'TOO_LARGE'}                             the final record would be over the cap; nothing written
--   {'CONFLICT'}                              it is final with another status
--
-- Cost: the usual call sends two commands, HMGET and HSET (with a cap, one HSTRLEN besides). No
-- EXISTS: every record has a head, so a reply of two nils is a missing key (and a key of another type
-- fails HMGET with WRONGTYPE). The record's status is the first value of 'o', PROJECTING without it.
local record = KEYS[1]
local stored = redis.call('HMGET', record, 'h', 'o')
if not (stored[1] or stored[2]) then
  return {'NOT_FOUND'}
end
local token, tool, fingerprint = string.match(stored[1] or '', '^[^|]*|([^|]*)|[^|]*|[^|]*|([^|]*)|(.*)$')
if token ~= ARGV[1] then
  return {'TOKEN_MISMATCH'}
end
if #ARGV[3] > 0 then
  if #tool + #fingerprint + redis.call('HSTRLEN', record, 'a') > tonumber(ARGV[3]) then
    return {'TOO_LARGE'}
  end
end
local status = stored[2] and string.match(stored[2], '^([^|]*)|') or 'PROJECTING'
if status == ARGV[2] then
  local reply = redis.call('HGETALL', record)
  table.insert(reply, 1, 'ALREADY_APPLIED')
  return reply
end
if status ~= 'PROJECTING' then
  return {'CONFLICT'}
end
redis.call('HSET', record, unpack(ARGV, 4))
return {'APPLIED'}
