-- complete.lua: compare-and-set one record from PROJECTING to READY or ERROR, by token. It checks the
-- token and the status, nothing else, and receives only the small values the completion adds. HSET on an
-- existing hash and RENAME leave TTLs as they are; a missing record is never re-created. Safe to run twice
-- with the same token (a client retry).
--
-- The raw response never enters this script: the store sends it just before, in the same pipeline, as
-- SET KEYS[2] <raw> XX KEEPTTL. The script links it (RENAME to KEYS[3]) only when KEYS[2] holds as many
-- bytes as ARGV[4] says (the pipeline is not a transaction: the SET may have been refused), or deletes it.
--
-- KEYS[1]  the record hash            <prefix>:{<runId>}:call:<toolCallId>
-- KEYS[2]  the attempt's pending raw  <prefix>:{<runId>}:pending:<token>:<toolCallId>, made by begin.lua
-- KEYS[3]  the record's raw response  <prefix>:{<runId>}:raw:<toolCallId>
-- ARGV[1]  the attempt token
-- ARGV[2]  the final status, READY or ERROR
-- ARGV[3]  the bytes the store's record cap leaves for what begin wrote (tool, arguments, fingerprint),
--          or '' when the store has no cap
-- ARGV[4]  the raw response's length in UTF-8 bytes, which the SET before this script wrote into
--          KEYS[2], or '' when the outcome has none
-- ARGV[5]  the value of 'o', the outcome's small values (see RecordCodec)
-- ARGV[6]  READY: the agent's content, field 'c'; ERROR: why it failed, field 'f', when the record says
--          (absent otherwise)
--
-- Reply, a list whose first element is the outcome:
--   {'APPLIED'}                               the record is now final
--   {'ALREADY_APPLIED', field, value, ...}    it already has this status and token: all its fields, and
--                                             'r' with the raw response when it has one
--   {'NOT_FOUND'}                             there is no record (expired or never created)
--   {'TOKEN_MISMATCH'}                        the record belongs to another attempt
--   {'TOO_LARGE'}                             the final record would be over the cap; nothing written
--   {'CONFLICT'}                              it is final with another status
--   {'RAW_LOST'}                              the attempt's pending key is gone (evicted): the raw response
--                                             was not kept, so nothing is written
--   {'RAW_NOT_WRITTEN'}                       the pending key does not hold the raw response: the SET before
--                                             this script was refused; nothing is written, the key stays
-- Every reply but APPLIED, TOO_LARGE and RAW_NOT_WRITTEN deletes KEYS[2], the attempt's own pending key
-- (never another attempt's): a raw response a refused completion wrote there is gone with it. TOO_LARGE
-- leaves the record PROJECTING, so it empties the placeholder instead (SET '' XX KEEPTTL), for the
-- attempt's next completion; RAW_NOT_WRITTEN leaves the placeholder as it is, for the next try.
local record = KEYS[1]
local stored = redis.call('HMGET', record, 'h', 'o')
local head, outcome = stored[1], stored[2]
if not (head or outcome) then
  redis.call('DEL', KEYS[2])
  return {'NOT_FOUND'}
end
local token = ARGV[1]
if not head or string.sub(head, 3, #token + 2) ~= token or string.byte(head, #token + 3) ~= 124 then
  redis.call('DEL', KEYS[2])
  return {'TOKEN_MISMATCH'}
end
if #ARGV[3] > 0 then
  -- The tool and the fingerprint are what follows the creation instant, one separator between them.
  local leaseEnd = string.find(head, '|', #token + 4, true)
  local createdEnd = leaseEnd and string.find(head, '|', leaseEnd + 1, true)
  local written = createdEnd and #head - createdEnd - 1 or 0
  if written + redis.call('HSTRLEN', record, 'a') > tonumber(ARGV[3]) then
    -- The record stays PROJECTING and the attempt may complete again: its placeholder stays, emptied.
    redis.call('SET', KEYS[2], '', 'XX', 'KEEPTTL')
    return {'TOO_LARGE'}
  end
end
local status = 'PROJECTING'
if outcome then
  status = string.byte(outcome, 6) == 124 and string.sub(outcome, 1, 5)
end
if status == ARGV[2] then
  redis.call('DEL', KEYS[2])
  local reply = redis.call('HGETALL', record)
  if status == 'READY' or string.sub(outcome, -3, -3) == '1' then
    local raw = redis.call('GET', KEYS[3])
    if raw then
      reply[#reply + 1] = 'r'
      reply[#reply + 1] = raw
    end
  end
  table.insert(reply, 1, 'ALREADY_APPLIED')
  return reply
end
if status ~= 'PROJECTING' then
  redis.call('DEL', KEYS[2])
  return {'CONFLICT'}
end
if ARGV[4] ~= '' then
  if redis.call('STRLEN', KEYS[2]) ~= tonumber(ARGV[4]) then
    if redis.call('EXISTS', KEYS[2]) == 0 then
      return {'RAW_LOST'}
    end
    return {'RAW_NOT_WRITTEN'}
  end
  -- RENAME fails on a missing key before it writes anything; then so does this script, writing nothing.
  if redis.pcall('RENAME', KEYS[2], KEYS[3])['err'] then
    return {'RAW_LOST'}
  end
else
  redis.call('DEL', KEYS[2])
end
if ARGV[6] then
  local detail = 'c'
  if ARGV[2] == 'ERROR' then
    detail = 'f'
  end
  redis.call('HSET', record, 'o', ARGV[5], detail, ARGV[6])
else
  redis.call('HSET', record, 'o', ARGV[5])
end
return {'APPLIED'}
