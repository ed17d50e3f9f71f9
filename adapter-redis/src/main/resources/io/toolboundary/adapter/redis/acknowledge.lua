-- acknowledge.lua: remove exported entries from the outbox and count those whose records were lost. For
-- each id: XACK in the consumer group; when that acknowledged it (it was pending, whoever held it), XDEL
-- it from the stream and count it. Then INCRBY the lost tally by the acknowledged ids among the lost ones.
-- An id acknowledged before (a repeat, or another exporter) is neither removed nor counted again, so the
-- script is safe to run twice. A tally that is not a count is refused before anything is written.
--
-- KEYS[1]  the outbox, a stream         <prefix>:outbox
-- KEYS[2]  the lost tally, a string     <prefix>:outbox:lost
-- ARGV[1]  the exporters' consumer group
-- ARGV[2]  n: how many of the ids that follow are of entries whose records were lost
-- ARGV[3]  and on: the entries' stream ids, each once, the n lost ones first
--
-- Reply: {removed}: how many entries this call acknowledged and deleted, as text.
local lostIds = tonumber(ARGV[2])
if lostIds > 0 then
  local tally = redis.pcall('GET', KEYS[2])
  local valid = type(tally) ~= 'table'
  if valid and tally then
    valid = #tally >= 1 and #tally <= 18
    for i = 1, #tally do
      local digit = string.byte(tally, i)
      valid = valid and digit >= 48 and digit <= 57
    end
  end
  if not valid then
    return redis.error_reply('WRONGTYPE the outbox lost tally is not a count')
  end
end
local removed, lost = 0, 0
for i = 3, #ARGV do
  if redis.call('XACK', KEYS[1], ARGV[1], ARGV[i]) == 1 then
    redis.call('XDEL', KEYS[1], ARGV[i])
    removed = removed + 1
    if i - 2 <= lostIds then
      lost = lost + 1
    end
  end
end
if lost > 0 then
  redis.call('INCRBY', KEYS[2], lost)
end
return {tostring(removed)}
