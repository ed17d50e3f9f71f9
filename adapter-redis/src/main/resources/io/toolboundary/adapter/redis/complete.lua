-- complete.lua: make one record final, by token. The store sends the whole final record just before
-- this script, in the same pipeline, as SET KEYS[2] <record> XX KEEPTTL, into the attempt's pending key,
-- which begin.lua created empty with the record and which exists only while the attempt's record is
-- PROJECTING: end.lua and abandon.lua delete it, and this script renames it. So a pending key holding
-- exactly the final record's length in bytes is this attempt's completion of its own PROJECTING record,
-- and RENAME makes it the record, with the pending key's TTL, set when the record was created. The final
-- record never enters Lua (but for an outbox that carries records, below). Safe to run twice with the same
-- token (a client retry).
--
-- With export on, the record made final is appended to the outbox in the same step (APPLIED only: a
-- repeated, refused or duplicate completion appends nothing): XADD <outbox> * r <runId> c <toolCallId>,
-- one command more; with 'v' and the record as stored when entries carry records, a GET of it after the
-- RENAME and two commands more. Without KEYS[3] the script sends exactly the commands it sends without an
-- outbox.
--
-- KEYS[1]  the record, a string       <prefix>:{<runId>}:call:<toolCallId>
-- KEYS[2]  the attempt's pending key   <prefix>:{<runId>}:pending:<token>:<toolCallId>
-- KEYS[3]  with export on only: the outbox, a stream   <prefix>:outbox
-- ARGV[1]  the attempt token
-- ARGV[2]  the final record's length in bytes (never 0)
-- ARGV[3]  with export on only: the run id
-- ARGV[4]  with export on only: the tool_call_id
-- ARGV[5]  with export on only: '1' when the entry carries the final record, else '0'
--
-- Reply, a list whose first element is the outcome:
--   {'APPLIED'}             the record is now final
--   {'FINAL', record}       it is final already (this attempt's completion landed before, or another):
--                           the record, which the caller compares with its own
--   {'NOT_FOUND'}           there is no record (expired or never created)
--   {'TOKEN_MISMATCH'}      the record belongs to another attempt
--   {'PENDING_LOST'}        the record is this attempt's, PROJECTING, and its pending key is gone (evicted):
--                           nothing written
--   {'NOT_WRITTEN'}         the pending key does not hold the final record: the SET before this script was
--                           refused or went elsewhere; nothing written, the key stays for the next try
--   {'RECORD_INVALID'}      the record key holds another type: nothing written
-- Every reply but APPLIED, PENDING_LOST, NOT_WRITTEN and RECORD_INVALID deletes the attempt's pending key.
if redis.call('STRLEN', KEYS[2]) == tonumber(ARGV[2]) then
  redis.call('RENAME', KEYS[2], KEYS[1])
  if KEYS[3] then
    if ARGV[5] == '1' then
      redis.call('XADD', KEYS[3], '*', 'r', ARGV[3], 'c', ARGV[4], 'v', redis.call('GET', KEYS[1]))
    else
      redis.call('XADD', KEYS[3], '*', 'r', ARGV[3], 'c', ARGV[4])
    end
  end
  return {'APPLIED'}
end
local token = ARGV[1]
local value = redis.pcall('GET', KEYS[1])
if type(value) == 'table' then
  return {'RECORD_INVALID'}
end
if not value then
  redis.call('DEL', KEYS[2])
  return {'NOT_FOUND'}
end
if string.sub(value, 5, 4 + #token) ~= token or string.byte(value, 5 + #token) ~= 124 then
  redis.call('DEL', KEYS[2])
  return {'TOKEN_MISMATCH'}
end
if string.byte(value, 3) == 80 then
  if redis.call('EXISTS', KEYS[2]) == 0 then
    return {'PENDING_LOST'}
  end
  return {'NOT_WRITTEN'}
end
redis.call('DEL', KEYS[2])
return {'FINAL', value}
