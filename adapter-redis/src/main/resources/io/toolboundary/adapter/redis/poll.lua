-- poll.lua: take up to max entries of the outbox for one exporter of the consumer group: first entries
-- delivered before and left unacknowledged for at least claimIdle, whoever holds them (XAUTOCLAIM from the
-- start of the group's pending list), then entries never delivered (XREADGROUP '>'), oldest first; never
-- waits. When the group does not exist (the first poll, or a restart without persistence), it is created
-- at the stream's start, the stream with it when there is none (XGROUP CREATE ... 0 MKSTREAM), so entries
-- appended before the first poll are delivered. Runs alone, so no other poll can create the group between
-- its check and its creation. A retry after a lost reply takes new entries again: those of the lost reply
-- stay pending for this consumer and are delivered again once idle (at least once).
--
-- KEYS[1]  the outbox, a stream   <prefix>:outbox
-- ARGV[1]  the exporters' consumer group
-- ARGV[2]  the exporter's name, the consumer
-- ARGV[3]  claimIdle, in milliseconds
-- ARGV[4]  max, the most entries to take (at least 1)
--
-- Reply: the entries, flat, oldest claimed first, then the new ones: for each, its id, the number of its
-- field and value strings, then those strings ('r' <runId> 'c' <toolCallId>, and 'v' <record> when it
-- carries the final record). An entry deleted while it was pending is left out.
local outbox, group, consumer, idle = KEYS[1], ARGV[1], ARGV[2], ARGV[3]
local max = tonumber(ARGV[4])
local out = {}
local taken = 0
local function add(entries)
  for _, entry in ipairs(entries) do
    local fields = entry[2]
    if type(fields) == 'table' then
      out[#out + 1] = entry[1]
      out[#out + 1] = tostring(#fields)
      for _, value in ipairs(fields) do
        out[#out + 1] = value
      end
      taken = taken + 1
    end
  end
end
local claimed = redis.pcall('XAUTOCLAIM', outbox, group, consumer, idle, '0-0', 'COUNT', max)
if type(claimed) == 'table' and claimed['err'] then
  if string.sub(claimed['err'], 1, 7) ~= 'NOGROUP' then
    return claimed
  end
  -- A new group has no pending entries: nothing to claim.
  redis.call('XGROUP', 'CREATE', outbox, group, '0', 'MKSTREAM')
else
  add(claimed[2])
end
if taken < max then
  local fresh = redis.call('XREADGROUP', 'GROUP', group, consumer, 'COUNT', max - taken, 'STREAMS', outbox, '>')
  if fresh then
    add(fresh[1][2])
  end
end
return out
