--[[
position-sltp: replaces a position's stop-loss, take-profit and trailing stop (the new levels were
checked in TypeScript against the entry side) if the position is still exactly as read (the SHA-1
of its JSON, which carries its version, is compared). The sweep and the positions reads use it too,
to ratchet a trailing stop (a new high-water mark).

KEYS[1]  book open positions (hash id -> position JSON)
KEYS[2]  account outbox (stream)
KEYS[3]  the outbox's index of unrelayed outboxes (set; KEYS[2] itself for a replay journal)

ARGV[1]  position id
ARGV[2]  SHA-1 (hex) of the position JSON the change was computed from
ARGV[3]  the updated position JSON
ARGV[4]  book name
ARGV[5]  event time, ms
ARGV[6]  the id of the request (or job) that caused the change, '' for none: the outbox entry's 'req'

Returns  {1}   updated
         {-1}  stale: the position changed since it was read (read again, recompute)
         {-2}  not open (closed, or no such position in this book)
Events:  position.updated with the updated position, on 1 only.

Every key is the account's (one hash tag, one cluster slot). The position's entries in the
per-symbol trigger indexes are moved around this script (trigger-hints.ts): widened before it,
set to the new levels once it applied.
]]
-- every key touched before any write: on a Redis Cluster, a key of a slot being migrated fails the script at its
-- first access, so a migration refuses the whole change (retryable) instead of stopping it halfway
for i = 1, #KEYS do redis.call('EXISTS', KEYS[i]) end
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return {-2} end
if redis.sha1hex(current) ~= ARGV[2] then return {-1} end

redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
outbox_add(KEYS[2], ARGV[6], 'event', 'position.updated', 'book', ARGV[4], 'ts', ARGV[5], 'position', ARGV[3])
-- indexes the outbox and wakes the relays (lua/includes/outbox-appended.lua)
outbox_appended(KEYS[2], KEYS[3])
return {1}
