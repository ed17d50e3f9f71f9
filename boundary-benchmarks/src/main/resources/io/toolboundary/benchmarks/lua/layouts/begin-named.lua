-- Named fields, each value within hash-max-listpack-value (64 bytes), so the record hash stays a
-- listpack; the arguments in a key of their own, and an empty placeholder for the agent's content that
-- the completion fills with SET ... XX KEEPTTL (a TTL set here, once).
-- KEYS[5] arguments, KEYS[6] content; ARGV[11] schema, ARGV[12] createdAt, ARGV[13] tool, ARGV[14] arguments
redis.call('HSET', record, 's', ARGV[11], 't', ARGV[1], 'l', string.format('%d:%09d', leaseSeconds, leaseNanos),
    'd', ARGV[12], 'n', ARGV[13], 'f', ARGV[2])
redis.call('PEXPIRE', record, ARGV[3])
redis.call('SET', KEYS[5], ARGV[14], 'PX', ARGV[3])
redis.call('SET', KEYS[6], '', 'PX', ARGV[3])
redis.call('SET', KEYS[4], '', 'PX', ARGV[3])
return {'CREATED', 'calls', tostring(calls)}
