-- open.lua: open a run, once. Creates the run's state (its token and its call counter, at zero) with a
-- TTL set here and never again; a run already held is left exactly as it is, and its token answered.
--
-- KEYS[1]  the run's state, a hash    <prefix>:{<runId>}:run
--          fields: 'token' (the opening's token), 'calls' (calls begun in the run), 't:<toolName>'
--          (calls begun of that tool), 'c:<toolCallId>' (the ledger: the packed fingerprint of each call
--          begun), 'e:<toolCallId>' (the tokens of the attempts ended before their record existed)
-- ARGV[1]  the token to open the run with
-- ARGV[2]  the state's TTL in milliseconds
--
-- Reply, a list whose first element is the outcome:
--   {'OPENED'}                     the run's state was created with ARGV[1]
--   {'RUN_OPEN', 'token', token}   the run was opened before, with this token: nothing written
--   {'RUN_INVALID'}                the key holds a hash without a token: nothing written
local held = redis.call('HGET', KEYS[1], 'token')
if held then
  return {'RUN_OPEN', 'token', held}
end
if redis.call('EXISTS', KEYS[1]) == 1 then
  return {'RUN_INVALID'}
end
redis.call('HSET', KEYS[1], 'token', ARGV[1], 'calls', '0')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {'OPENED'}
