-- find.lua: read one record, changing nothing (its TTL included). Run as a script so that the read
-- goes to the master that owns the key, whatever the client's read mode.
--
-- KEYS[1]  the record hash            <prefix>:{<runId>}:call:<toolCallId>
-- ARGV     none
--
-- Reply: the hash as a flat list {field, value, ...}; an empty list when there is no record.
return redis.call('HGETALL', KEYS[1])
