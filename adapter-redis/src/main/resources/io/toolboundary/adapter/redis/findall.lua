-- findall.lua: read several records of one run, changing nothing (no TTL is touched). Every key carries
-- the run's hash tag, so all are in one slot. Run as a script so that the read goes to the master.
--
-- KEYS[1]  a record, a string       <prefix>:{<runId>}:call:<toolCallId>
--          (then one key per further record, KEYS[2] and on, all of the same run)
--
-- Reply: for each record that exists, its position in KEYS (1-based, as text) then the record as stored
-- (see RecordCodec); an empty list when none exists.
local values = redis.call('MGET', unpack(KEYS))
local found = {}
for i = 1, #KEYS do
  if values[i] then
    found[#found + 1] = tostring(i)
    found[#found + 1] = values[i]
  end
end
return found
