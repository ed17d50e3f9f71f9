-- touch.lua: rewrite a field of a record (its head, 'h') or of a run's state (its token) with its own value, so that the write propagates to the replicas
-- and moves this connection's replication offset to now. Sent only with replica acknowledgement, behind
-- a reply that confirms an earlier write of the same attempt (a retry), and followed by WAIT: WAIT counts
-- the writes of its own connection, and on some Redis versions a command that writes nothing does not
-- move that count, so without this write a WAIT could pass while the earlier write, made on another
-- connection, has not reached the replicas yet. HSET on an existing hash keeps its TTL; a missing record
-- is never created.
--
-- KEYS[1]  the record hash <prefix>:{<runId>}:call:<toolCallId>, or the run's state <prefix>:{<runId>}:run
-- ARGV[1]  the field to rewrite: 'h' of a record, 'token' of a run's state
--
-- Reply: {'TOUCHED'} when the field exists (and was rewritten), {'NOT_FOUND'} when it does not.
local value = redis.call('HGET', KEYS[1], ARGV[1])
if not value then
  return {'NOT_FOUND'}
end
redis.call('HSET', KEYS[1], ARGV[1], value)
return {'TOUCHED'}
