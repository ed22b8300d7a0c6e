--[[
order-modify: replaces the terms of a resting order (level, stop, target, margin, leverage,
trailing stop) and restarts its candle watermark, if it is still resting and unchanged since it was
read. The new terms were validated against the market in TypeScript.

KEYS[1]  book resting orders (zset order id by placed ms)
KEYS[2]  book orders (hash order id -> order JSON)

ARGV[1]  order id
ARGV[2]  SHA-1 of the order JSON as read
ARGV[3]  new order JSON (status open)

Returns  {1, order JSON}  modified
         {-1}             stale: the order changed since it was read (read it again)
         {-2}             not resting any more (filled, cancelled, expired or rejected)
Events:  none (the spec names no event for a modified order).

Every key is the account's (one hash tag, one cluster slot). The order's entry in the order index
of its symbol follows the new level around this script (order-hints.ts): widened toward it before,
set to it once applied.
]]
-- every key touched before any write: on a Redis Cluster, a key of a slot being migrated fails the script at its
-- first access, so a migration refuses the whole change (retryable) instead of stopping it halfway
for i = 1, #KEYS do redis.call('EXISTS', KEYS[i]) end
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return {-2} end
local current = redis.call('HGET', KEYS[2], ARGV[1])
if not current or redis.sha1hex(current) ~= ARGV[2] then return {-1} end

redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return {1, ARGV[3]}
