-- Named fields: the token and the status read by name, no parsing; the content into its placeholder.
-- KEYS[1] record, KEYS[2] pending raw, KEYS[3] raw, KEYS[4] content
-- ARGV[1] token, ARGV[2] status, ARGV[3] room ('' without a cap), ARGV[4] the raw response's length
-- ('' without one), ARGV[5] updatedAt,
-- ARGV[6] evidence or code, ARGV[7] scope mark, ARGV[8] content
local record = KEYS[1]
local stored = redis.call('HMGET', record, 't', 'st')
if not stored[1] then
  redis.call('DEL', KEYS[2])
  return {'NOT_FOUND'}
end
if stored[1] ~= ARGV[1] then
  redis.call('DEL', KEYS[2])
  return {'TOKEN_MISMATCH'}
end
local status = stored[2] or 'PROJECTING'
if status == ARGV[2] then
  redis.call('DEL', KEYS[2])
  return {'ALREADY_APPLIED'}
end
if status ~= 'PROJECTING' then
  redis.call('DEL', KEYS[2])
  return {'CONFLICT'}
end
if ARGV[4] ~= '' then
  if redis.call('STRLEN', KEYS[2]) ~= tonumber(ARGV[4]) then
    return {'RAW_NOT_WRITTEN'}
  end
  if redis.pcall('RENAME', KEYS[2], KEYS[3])['err'] then
    return {'RAW_LOST'}
  end
else
  redis.call('DEL', KEYS[2])
end
redis.call('SET', KEYS[4], ARGV[8], 'XX', 'KEEPTTL')
redis.call('HSET', record, 'st', ARGV[2], 'u', ARGV[5], 'e', ARGV[6], 'w', ARGV[4] ~= '' and '1' or '0', 'p',
  ARGV[7])
return {'APPLIED'}
