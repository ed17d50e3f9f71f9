-- One string per record, as complete-string.lua, but the final record written anew with one
-- SET ... KEEPTTL of the whole value (header with the new status and raw flag, the rest as begin wrote it,
-- then the outcome and content) instead of SETRANGE and APPEND, whose string grows by doubling its
-- allocation. The arguments pass through Lua; the raw response does not.
-- KEYS[1] record, KEYS[2] pending raw, KEYS[3] raw; ARGV as complete-string.lua
local record = KEYS[1]
local token = ARGV[1]
local value = redis.call('GET', record)
if not value then
  redis.call('DEL', KEYS[2])
  return {'NOT_FOUND'}
end
if string.sub(value, 24, 25) ~= ARGV[5] or string.sub(value, 26, 25 + #token) ~= token then
  redis.call('DEL', KEYS[2])
  return {'TOKEN_MISMATCH'}
end
local status = string.sub(value, 2, 2)
if status == ARGV[2] then
  redis.call('DEL', KEYS[2])
  return {'ALREADY_APPLIED'}
end
if status ~= 'P' then
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
redis.call('SET', record, string.sub(value, 1, 1) .. ARGV[6] .. string.sub(value, 4) .. ARGV[7], 'KEEPTTL')
return {'APPLIED'}
