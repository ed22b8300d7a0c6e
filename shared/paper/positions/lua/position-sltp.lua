--[[
position-sltp: replaces a position's stop-loss, take-profit and trailing stop (the new levels were
checked in TypeScript against the entry side) if the position is still exactly as read (the SHA-1
of its JSON, which carries its version, is compared). The sweep and the positions reads use it too,
to ratchet a trailing stop (a new high-water mark).

KEYS[1]  book open positions (hash id -> position JSON)
KEYS[2]  account outbox (stream)
KEYS[3]  trigger index: stop-loss levels of the symbol and side (zset)
KEYS[4]  trigger index: take-profit levels of the symbol and side (zset)
KEYS[5]  trigger index: trailing positions of the symbol and side, by high-water mark (zset)

ARGV[1]  position id
ARGV[2]  SHA-1 (hex) of the position JSON the change was computed from
ARGV[3]  the updated position JSON
ARGV[4]  trigger member: accountId|book|positionId
ARGV[5]  the new stop in force (the tighter of stop-loss and trailing stop), or '' for none
ARGV[6]  new take-profit price, or '' for none
ARGV[7]  book name
ARGV[8]  event time, ms
ARGV[9]  trailing high-water mark, or '' when the position no longer trails

Returns  {1}   updated
         {-1}  stale: the position changed since it was read (read again, recompute)
         {-2}  not open (closed, or no such position in this book)
Events:  position.updated with the updated position, on 1 only.

The trigger indexes are cross-account keys under the symbol's hash tag ({SYMBOL}), not the
account's: on one Redis they change atomically with the position; under Redis Cluster they sit in
another slot and these index writes have to leave the script (they are hints: the sweep re-checks
the position itself before it settles anything).
]]
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return {-2} end
if redis.sha1hex(current) ~= ARGV[2] then return {-1} end

redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
if ARGV[5] == '' then redis.call('ZREM', KEYS[3], ARGV[4]) else redis.call('ZADD', KEYS[3], ARGV[5], ARGV[4]) end
if ARGV[6] == '' then redis.call('ZREM', KEYS[4], ARGV[4]) else redis.call('ZADD', KEYS[4], ARGV[6], ARGV[4]) end
if ARGV[9] == '' then redis.call('ZREM', KEYS[5], ARGV[4]) else redis.call('ZADD', KEYS[5], ARGV[9], ARGV[4]) end
redis.call('XADD', KEYS[2], '*', 'event', 'position.updated', 'book', ARGV[7], 'ts', ARGV[8], 'position', ARGV[3])
-- wakes the outbox relay (shared/push); a nudge nobody hears is found by its periodic scan
redis.call('PUBLISH', 'pd:outbox', KEYS[2])
return {1}
