-- find.lua: read one record, changing nothing (no TTL is touched). Run as a script so that the read goes
-- to the master that owns the key.
--
-- KEYS[1]  the record, a string       <prefix>:{<runId>}:call:<toolCallId>
--
-- Reply: the record as stored (see RecordCodec), or nil when there is none.
return redis.call('GET', KEYS[1])
