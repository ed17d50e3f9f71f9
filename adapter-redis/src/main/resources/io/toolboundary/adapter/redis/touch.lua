-- touch.lua: rewrite a record's first byte, or a run's token, with its own value, so that the write
-- propagates to the replicas and moves this connection's replication offset to now. Sent only with replica
-- acknowledgement, behind a reply that confirms an earlier write of the same attempt (a retry), and
-- followed by WAIT: WAIT counts the writes of its own connection, and on some Redis versions a command that
-- writes nothing does not move that count, so without this write a WAIT could pass while the earlier write,
-- made on another connection, has not reached the replicas yet. SETRANGE and HSET on an existing key keep
-- its TTL; a missing key is never created.
--
-- KEYS[1]  a record <prefix>:{<runId>}:call:<toolCallId>, or a run's state <prefix>:{<runId>}:run
--
-- Reply: {'TOUCHED'} when the key exists (and was rewritten), {'NOT_FOUND'} when it does not.
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind == 'string' then
  redis.call('SETRANGE', KEYS[1], 0, redis.call('GETRANGE', KEYS[1], 0, 0))
  return {'TOUCHED'}
end
local token = kind == 'hash' and redis.call('HGET', KEYS[1], 'token')
if not token then
  return {'NOT_FOUND'}
end
redis.call('HSET', KEYS[1], 'token', token)
return {'TOUCHED'}
