-- scankeys.lua: one SCAN step over the keys of the node the script runs on, changing nothing. Never KEYS.
--
-- KEYS[1]  a key for routing only (not read)
-- ARGV[1]  the SCAN cursor, "0" to start
-- ARGV[2]  the MATCH pattern
-- ARGV[3]  the COUNT hint
--
-- Reply: {next cursor, key, key, ...}; the next cursor is "0" when the walk is over.
local reply = redis.call('SCAN', ARGV[1], 'MATCH', ARGV[2], 'COUNT', ARGV[3])
local out = {reply[1]}
for _, key in ipairs(reply[2]) do
    out[#out + 1] = key
end
return out
