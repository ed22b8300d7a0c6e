--[[
order-place: records a new resting order (a limit or stop entry), once per client_order_id, within
the book's cap of resting orders. The order was validated and priced in TypeScript; this script only
checks and applies.

KEYS[1]  book resting orders (zset order id by placed ms)
KEYS[2]  book orders (hash order id -> order JSON: the resting ones and the last done ones)
KEYS[3]  idempotency key of the client_order_id (string: the order id, TTL); with no
         client_order_id any key of the account (it is not read)
KEYS[4]  account outbox (stream)
KEYS[5]  the outbox's index of unrelayed outboxes (set)

ARGV[1]  order id
ARGV[2]  order JSON (status open)
ARGV[3]  cap of resting orders of the book
ARGV[4]  1 when a client_order_id was sent, else 0
ARGV[5]  idempotency time to live, seconds
ARGV[6]  placed ms
ARGV[7]  book name
ARGV[8]  the id of the request that placed it, '' for none: the outbox entry's 'req'

Returns  {1, order JSON}  placed
         {2, order JSON}  idempotent: the order this client_order_id placed, as it stands now
         {3, order id}    idempotent, but that order is done and no longer kept
         {-1, count}      refused: the book holds the cap of resting orders (too_many_orders)
Events:  order.placed with the order, on 1 only. The spec names no event for a placed order: the relay carries
         this one on the account's channel (the Binance user-data stream's NEW), never to webhooks
         (shared/push/push-event.ts, CHANNEL_EVENTS).

Every key is the account's (one hash tag, one cluster slot). The order's entries in the
cross-account order and expiry indexes are written around this script (order-hints.ts): before it,
and taken out again when it stores another order or none.
]]
-- every key touched before any write: on a Redis Cluster, a key of a slot being migrated fails the script at its
-- first access, so a migration refuses the whole change (retryable) instead of stopping it halfway
for i = 1, #KEYS do redis.call('EXISTS', KEYS[i]) end
-- a create already made with this client_order_id answers as it did (idempotency.lua, sent ahead of this script)
local earlier = ARGV[4] == '1' and earlier_reply(KEYS[3], KEYS[2])
if earlier then return earlier end

local count = redis.call('ZCARD', KEYS[1])
if count >= tonumber(ARGV[3]) then return {-1, count} end

redis.call('ZADD', KEYS[1], ARGV[6], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
remember_create(KEYS[3], ARGV[4], ARGV[1], ARGV[5])
outbox_add(KEYS[4], ARGV[8], 'event', 'order.placed', 'book', ARGV[7], 'ts', ARGV[6], 'order', ARGV[2])
-- indexes the outbox and wakes the relays (lua/includes/outbox-appended.lua)
outbox_appended(KEYS[4], KEYS[5])
return {1, ARGV[2]}
