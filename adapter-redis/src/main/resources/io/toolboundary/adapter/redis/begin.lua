-- begin.lua: create one PROJECTING record and reserve one call of the run's and the tool's budget,
-- atomically, in a run opened by open.lua. Every check comes before the first write, so a refusal (or an
-- OOM refusal by Redis) changes nothing. Safe to run twice with the same token (a client retry).
--
-- KEYS[1]  the record, a string       <prefix>:{<runId>}:call:<toolCallId> (see RecordCodec)
-- KEYS[2]  the run's state, a hash     <prefix>:{<runId>}:run, made by open.lua (see open.lua)
-- KEYS[3]  the attempt's pending key   <prefix>:{<runId>}:pending:<token>:<toolCallId>: created here, empty,
--          just before the record and with the same TTL, so that it expires no later than the record;
--          the completion writes the final record into it (SET ... XX KEEPTTL) and renames it over the
--          record (see complete.lua)
-- ARGV[1]  the attempt token
-- ARGV[2]  the packed request fingerprint, the ledger's value
-- ARGV[3]  the record's TTL in milliseconds
-- ARGV[4]  the run's call budget
-- ARGV[5]  the tool's call budget
-- ARGV[6]  the token the run was opened with, as the caller knows it
-- ARGV[7]  the tool's counter field, 't:<toolName>'
-- ARGV[8]  the call's ledger field, 'c:<toolCallId>'
-- ARGV[9]  the call's end mark field, 'e:<toolCallId>': the tokens of the attempts end.lua ended before
--          their record existed, separated by spaces
-- ARGV[10] the most calls the caller has seen the run begin: a run's state with fewer is an older copy
--          (a failover to a replica that missed writes), so its ledger cannot be trusted
-- ARGV[11] the PROJECTING record, as RecordCodec writes it
--
-- Reply, a list whose first element is the outcome:
--   {'RUN_LOST'}                the run's state is missing, holds another token (it was never opened, or
--                               lost and opened again) or fewer calls than the caller saw (an older copy)
--   {'CREATED', calls}          the record was created, both counters incremented and the call entered in
--                               the ledger; calls: the run's calls now
--   {'ALREADY_CREATED', record} the record exists, PROJECTING, with this token (a retry): the record
--   {'EXISTS', record}          the record exists otherwise: the caller tells a duplicate from a reused id
--   {'DUPLICATE'}               the record is gone but the run's ledger has the call, same fingerprint
--   {'REUSED'}                  ... with another fingerprint
--   {'RUN_BUDGET'} / {'TOOL_BUDGET'}   a budget is used up
--   {'COUNTER_INVALID'}         a counter holds something other than digits
--   {'ATTEMPT_ENDED'}           this attempt was ended before its begin arrived
--   {'RECORD_INVALID'}          the record key holds another type
-- Every reply but CREATED writes nothing.
local token = ARGV[1]
-- The run first: without its state the store cannot know what ran, whatever the record key holds.
local run = redis.call('HMGET', KEYS[2], 'token', 'calls', ARGV[7], ARGV[8], ARGV[9])
if run[1] ~= ARGV[6] then
  return {'RUN_LOST'}
end
-- A counter is digits only: tonumber would also take ' 1', '1.5' or '1e3', which no count of this store
-- can be. One pattern checks both.
local runText = run[2] or '0'
local toolText = run[3] or '0'
if not string.find(runText .. '|' .. toolText, '^%d+|%d+$') then
  return {'COUNTER_INVALID'}
end
local runUsed = tonumber(runText)
if runUsed < tonumber(ARGV[10]) then
  return {'RUN_LOST'}
end

-- The record as stored, or nil when the key is missing; false when it holds another type.
local function stored()
  local value = redis.pcall('GET', KEYS[1])
  if type(value) == 'table' then
    return false
  end
  return value
end
-- A record of this attempt, still PROJECTING: '<schema>|P|<token>|...'.
local function ownProjecting(value)
  return string.sub(value, 3, 4 + #token) == 'P|' .. token and string.byte(value, 5 + #token) == 124
end

-- The run began this call: a retry of this very begin, or a duplicate, even when its record is gone.
if run[4] then
  local value = stored()
  if value and ownProjecting(value) then
    return {'ALREADY_CREATED', value}
  end
  if run[4] == ARGV[2] then
    return {'DUPLICATE'}
  end
  return {'REUSED'}
end
if run[5] and string.find(' ' .. run[5] .. ' ', ' ' .. token .. ' ', 1, true) then
  return {'ATTEMPT_ENDED'}
end
if runUsed >= tonumber(ARGV[4]) then
  return {'RUN_BUDGET'}
end
local toolUsed = tonumber(toolText)
if toolUsed >= tonumber(ARGV[5]) then
  return {'TOOL_BUDGET'}
end

-- The pending key first, so that it never outlives the record; NX keeps one already there.
local fresh = redis.call('SET', KEYS[3], '', 'NX', 'PX', ARGV[3])
if not redis.call('SET', KEYS[1], ARGV[11], 'NX', 'PX', ARGV[3]) then
  -- A record the ledger does not know: the run's state was lost and opened again, or it was written by hand.
  if fresh then
    redis.call('DEL', KEYS[3])
  end
  local value = stored()
  if not value then
    return {'RECORD_INVALID'}
  end
  return {'EXISTS', value}
end
-- Both counters, known to be below their budgets (whole numbers under 2^31), and the ledger entry, in one
-- write: the script runs alone, so the counts read above are still the counts.
local calls = runUsed + 1
redis.call('HSET', KEYS[2], 'calls', calls, ARGV[7], toolUsed + 1, ARGV[8], ARGV[2])
return {'CREATED', tostring(calls)}
