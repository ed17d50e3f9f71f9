-- find.lua: read one record, changing nothing (its TTL included). Run as a script so that the read
-- goes to the master that owns the key, whatever the client's read mode.
--
-- KEYS[1]  the record hash            <prefix>:{<runId>}:call:<toolCallId>
-- KEYS[2]  the record's raw response  <prefix>:{<runId>}:raw:<toolCallId>, read only when the record's
--          'o' says it has one
-- ARGV     none
--
-- Reply: the hash as a flat list {field, value, ...}, and 'r' with the raw response when the record has
-- one and it is there (a record that says it has one and lacks it lost it: the store reads that as
-- damage); an empty list when there is no record.
local reply = redis.call('HGETALL', KEYS[1])
local outcome
for i = 1, #reply, 2 do
  if reply[i] == 'o' then
    outcome = reply[i + 1]
  end
end
-- A READY record has a raw response; an ERROR record's flag is the third character from the end of 'o'
-- (its scope is '-'). No pattern reads 'o'.
if outcome and (string.sub(outcome, 1, 5) == 'READY' or string.sub(outcome, -3, -3) == '1') then
  local raw = redis.call('GET', KEYS[2])
  if raw then
    reply[#reply + 1] = 'r'
    reply[#reply + 1] = raw
  end
end
return reply
