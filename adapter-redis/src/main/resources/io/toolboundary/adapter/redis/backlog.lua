-- backlog.lua: what the outbox holds, changing nothing: its length (entries not yet acknowledged, since an
-- acknowledgement deletes its entries), its first entry's id (the oldest, whose milliseconds say when it was
-- appended) and the lost tally. A missing stream or tally reads as empty or zero.
--
-- KEYS[1]  the outbox, a stream         <prefix>:outbox
-- KEYS[2]  the lost tally, a string     <prefix>:outbox:lost
--
-- Reply: {length, the oldest entry's id or '' when there is none, the lost tally or '0'}, as text.
local length = redis.call('XLEN', KEYS[1])
local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
local lost = redis.call('GET', KEYS[2])
return {tostring(length), first[1] and first[1][1] or '', lost or '0'}
