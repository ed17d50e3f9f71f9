-- touch.lua: rewrite a record's status with its own value, so that the write propagates to the replicas
-- and moves this connection's replication offset to now. Sent only with replica acknowledgement, behind
-- a reply that confirms an earlier write of the same attempt (a retry), and followed by WAIT: WAIT counts
-- the writes of its own connection, and on some Redis versions a command that writes nothing does not
-- move that count, so without this write a WAIT could pass while the earlier write, made on another
-- connection, has not reached the replicas yet. HSET on an existing hash keeps its TTL; a missing record
-- is never created.
--
-- KEYS[1]  the record hash            <prefix>:{<runId>}:call:<toolCallId>
--
-- Reply: {'TOUCHED'} when the record exists (and its status was rewritten), {'NOT_FOUND'} when it does not.
local status = redis.call('HGET', KEYS[1], 'status')
if not status then
  return {'NOT_FOUND'}
end
redis.call('HSET', KEYS[1], 'status', status)
return {'TOUCHED'}
