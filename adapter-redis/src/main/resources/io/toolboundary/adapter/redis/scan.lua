-- scan.lua: one SCAN step over the keys of the master the script runs on, changing nothing. Run as a
-- script so that, on Redis Cluster, it goes to the master that owns the slot of KEYS[1] (a run's hash tag
-- for a run's records); SCAN then walks that master's keyspace, and the MATCH pattern keeps only the keys
-- asked for. Never KEYS.
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
