-- The run's part of begin, the same in every layout (as in the store's begin.lua): the run's token, its
-- counters and ledger entry, the budgets, one HSET of the run's state, TIME and the lease.
-- KEYS[1] record, KEYS[2] run, KEYS[3] end mark, KEYS[4] pending raw; ARGV[1..10] as the store's begin.
local record = KEYS[1]
local run = redis.call('HMGET', KEYS[2], 'token', 'calls', ARGV[8], ARGV[9])
if run[1] ~= ARGV[7] then
  return {'RUN_LOST'}
end
local runText = run[2] or '0'
local toolText = run[3] or '0'
if not string.find(runText .. '|' .. toolText, '^%d+|%d+$') then
  return {'COUNTER_INVALID'}
end
local runUsed = tonumber(runText)
if runUsed < tonumber(ARGV[10]) then
  return {'RUN_LOST'}
end
if redis.call('EXISTS', record, KEYS[3]) > 0 then
  return {'HELD'}
end
if run[4] then
  return {'DUPLICATE'}
end
if runUsed >= tonumber(ARGV[4]) then
  return {'RUN_BUDGET'}
end
local toolUsed = tonumber(toolText)
if toolUsed >= tonumber(ARGV[5]) then
  return {'TOOL_BUDGET'}
end
local calls = runUsed + 1
redis.call('HSET', KEYS[2], 'calls', calls, ARGV[8], toolUsed + 1, ARGV[9], ARGV[2])
local now = redis.call('TIME')
local lease = tonumber(ARGV[6])
local leaseMillis = lease % 1000
local leaseSeconds = now[1] + (lease - leaseMillis) / 1000
local leaseNanos = now[2] * 1000 + leaseMillis * 1000000
if leaseNanos >= 1000000000 then
  leaseSeconds = leaseSeconds + 1
  leaseNanos = leaseNanos - 1000000000
end
