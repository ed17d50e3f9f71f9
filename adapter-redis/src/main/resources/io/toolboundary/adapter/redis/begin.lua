-- begin.lua: create one PROJECTING record and reserve one call of the run's and the tool's budget,
-- atomically, in a run opened by open.lua. Every check comes before the first write, so a refusal (or an
-- OOM refusal by Redis) changes nothing. Safe to run twice with the same token (a client retry).
--
-- KEYS[1]  the record hash            <prefix>:{<runId>}:call:<toolCallId>
-- KEYS[2]  the run's state, a hash     <prefix>:{<runId>}:run, made by open.lua: 'token', 'calls' and one
--          'tool:<toolName>' counter per tool called; its TTL was set when the run was opened
-- KEYS[3]  the attempt's end mark      <prefix>:{<runId>}:ended:<token>, left by end.lua when it ended
--          this attempt before any record existed
-- KEYS[4]  the attempt's pending raw  <prefix>:{<runId>}:pending:<token>:<toolCallId>: created here with
--          the record, empty, with the record's TTL, so that the completion can write the raw response
--          into it with a plain SET ... XX KEEPTTL (see complete.lua), never creating a key
-- ARGV[1]  the attempt token
-- ARGV[2]  the request fingerprint
-- ARGV[3]  the record's TTL in milliseconds
-- ARGV[4]  the run's call budget
-- ARGV[5]  the tool's call budget
-- ARGV[6]  the execution lease in milliseconds, from now by the server's clock (TIME)
-- ARGV[7]  the token the run was opened with, as the caller knows it
-- ARGV[8]  the tool's counter field in the run's state, 'tool:<toolName>'
-- ARGV[9]  the call's field in the run's ledger, 'call:<toolCallId>', whose value is the fingerprint
--          of the call when the run began it; kept as long as the run, past the record
-- ARGV[10] the most calls the caller has seen the run begin: a run's state with fewer is an older copy
--          (a failover to a replica that missed writes), so its ledger cannot be trusted
-- ARGV[11] the record's head up to its lease, '<schema>|<token>|'
-- ARGV[12] the record's head after its lease, '|<createdAt>|<tool>|<fingerprint>'
-- ARGV[13] the arguments
--
-- The record is the hash {h = ARGV[11] .. lease .. ARGV[12], a = ARGV[13]} (see RecordCodec), where the
-- lease is the lease's end, '<seconds>:<nine digits of nanoseconds>' by the server's clock (TIME), read
-- by abandon.lua; a record without field 'o' is PROJECTING.
--
-- Reply, a list whose first element is the outcome:
--   {'RUN_LOST'}                              the run's state is missing, holds another token (it was
--                                             never opened, or lost and opened again) or fewer calls than
--                                             the caller saw (an older copy): nothing written
--   {'CREATED', 'calls', n}                   the record was created, both counters incremented and the
--                                             call entered in the ledger; n: the run's calls now
--   {'ALREADY_CREATED', field, value, ...}    the record exists, PROJECTING, with this token: all its fields
--   {'DUPLICATE'}                             the record, or the run's ledger, has the call with the same
--                                             request fingerprint
--   {'REUSED'}                                ... with another request fingerprint
--   {'RUN_BUDGET'} / {'TOOL_BUDGET'}          a budget is used up
--   {'COUNTER_INVALID'}                       a counter holds something other than digits
--   {'ATTEMPT_ENDED'}                         this attempt was ended before its begin arrived: nothing written
--   {'RECORD_INVALID'}                        the record key holds a hash that is not a record of this
--                                             store (no head in its layout): nothing written
local record = KEYS[1]
-- The run first: without its state the store cannot know what ran, whatever the record key holds.
local run = redis.call('HMGET', KEYS[2], 'token', 'calls', ARGV[8], ARGV[9])
if run[1] ~= ARGV[7] then
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
-- One EXISTS for both: in the usual call neither the record nor the attempt's end mark exists.
if redis.call('EXISTS', record, KEYS[3]) > 0 then
  local stored = redis.call('HMGET', record, 'h', 'o')
  -- '<schema>|<token>|<lease>|<createdAt>|<tool>|<fingerprint>': the five separators found as plain
  -- text, in order (no value before the fingerprint holds one), no pattern.
  local head = stored[1] or ''
  local schemaEnd = string.find(head, '|', 1, true)
  local tokenEnd = schemaEnd and string.find(head, '|', schemaEnd + 1, true)
  local at = tokenEnd and string.find(head, '|', tokenEnd + 1, true)
  at = at and string.find(head, '|', at + 1, true)
  at = at and string.find(head, '|', at + 1, true)
  if not at then
    if redis.call('EXISTS', record) == 0 then
      -- No record, so the end mark exists: this attempt was ended before its begin arrived.
      return {'ATTEMPT_ENDED'}
    end
    -- A hash without a head this store wrote: not a record of this store, and nothing to decide on.
    return {'RECORD_INVALID'}
  end
  if not stored[2] and string.sub(head, schemaEnd + 1, tokenEnd - 1) == ARGV[1] then
    local reply = redis.call('HGETALL', record)
    table.insert(reply, 1, 'ALREADY_CREATED')
    return reply
  end
  if string.sub(head, at + 1) == ARGV[2] then
    return {'DUPLICATE'}
  end
  return {'REUSED'}
end

-- The record is gone (expired, or lost on its own) but the run began the call: it never runs again.
if run[4] then
  if run[4] == ARGV[2] then
    return {'DUPLICATE'}
  end
  return {'REUSED'}
end
if runUsed >= tonumber(ARGV[4]) then
  return {'RUN_BUDGET'}
end
local toolUsed = tonumber(toolText)
if toolUsed >= tonumber(ARGV[5]) then
  return {'TOOL_BUDGET'}
end

-- Both counters, known to be below their budgets (whole numbers under 2^31), and the ledger entry, in one
-- write: the script runs alone, so the counts read above are still the counts.
local calls = runUsed + 1
redis.call('HSET', KEYS[2], 'calls', calls, ARGV[8], toolUsed + 1, ARGV[9], ARGV[2])
local now = redis.call('TIME')
-- Lua turns TIME's strings into numbers in the arithmetic itself.
local lease = tonumber(ARGV[6])
local leaseMillis = lease % 1000
local leaseSeconds = now[1] + (lease - leaseMillis) / 1000
local leaseNanos = now[2] * 1000 + leaseMillis * 1000000
if leaseNanos >= 1000000000 then
  leaseSeconds = leaseSeconds + 1
  leaseNanos = leaseNanos - 1000000000
end
redis.call('HSET', record, 'h', ARGV[11] .. string.format('%d:%09d', leaseSeconds, leaseNanos) .. ARGV[12],
    'a', ARGV[13])
redis.call('PEXPIRE', record, ARGV[3])
redis.call('SET', KEYS[4], '', 'PX', ARGV[3])
return {'CREATED', 'calls', tostring(calls)}
