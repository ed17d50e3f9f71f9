-- referencability.lua: how several records of one run may be cited, from each record's head alone, changing
-- nothing (no TTL is touched; no request or raw response leaves the server). Every key carries the run's
-- hash tag, so all are in one slot. Run as a script so that the read goes to the master.
--
-- KEYS[1]  a record, a string       <prefix>:{<runId>}:call:<toolCallId>
--          (then one key per further record, KEYS[2] and on, all of the same run)
--
-- Reply: for each record that exists, its position in KEYS (1-based, as text) then the start of its head,
-- <version>|<status>|<token>|<leaseLeft>|<createdAt>|<updatedAt>|<outcome>| (see RecordCodec), cut after the
-- seventh '|'; the whole first 512 bytes when they hold fewer (the caller refuses that as invalid data).
local found = {}
for i = 1, #KEYS do
  local head = redis.call('GETRANGE', KEYS[i], 0, 511)
  if head ~= '' then
    local at = 0
    for _ = 1, 7 do
      at = string.find(head, '|', at + 1, true)
      if not at then
        break
      end
    end
    found[#found + 1] = tostring(i)
    found[#found + 1] = at and string.sub(head, 1, at) or head
  end
end
return found
