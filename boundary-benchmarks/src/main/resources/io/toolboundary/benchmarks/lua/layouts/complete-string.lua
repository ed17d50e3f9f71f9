-- One string per record: the header and the token read with one GETRANGE, compared at fixed offsets;
-- the status and raw flag written in place (SETRANGE), the outcome and the content appended (APPEND);
-- neither touches the TTL.
-- KEYS[1] record, KEYS[2] pending raw, KEYS[3] raw
-- ARGV[1] token, ARGV[2] status letter (R or E), ARGV[3] room ('' without a cap), ARGV[4] the raw
-- response's length ('' without one),
-- ARGV[5] the token's length (2 digits), ARGV[6] status letter and raw flag, ARGV[7] the appended tail
-- '\n<updatedAt>|<evidence or code>|<scope mark>\n<content>'
local record = KEYS[1]
local token = ARGV[1]
local head = redis.call('GETRANGE', record, 0, 24 + #token)
if head == '' then
  redis.call('DEL', KEYS[2])
  return {'NOT_FOUND'}
end
if string.sub(head, 24, 25) ~= ARGV[5] or string.sub(head, 26) ~= token then
  redis.call('DEL', KEYS[2])
  return {'TOKEN_MISMATCH'}
end
local status = string.sub(head, 2, 2)
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
redis.call('SETRANGE', record, 1, ARGV[6])
redis.call('APPEND', record, ARGV[7])
return {'APPLIED'}
