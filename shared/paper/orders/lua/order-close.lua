--[[
order-close: a resting order leaves the book as cancelled (cancel_order, on the client's request) or
expired (the expiry job, 30 days without a fill), if it is still resting and unchanged since it was
read. The done order JSON (status cancelled or expired) was built in TypeScript.

KEYS[1]  book resting orders (zset order id by placed ms)
KEYS[2]  book orders (hash order id -> order JSON)
KEYS[3]  book done orders (zset order id by done ms)
KEYS[4]  account outbox (stream)
KEYS[5]  book order tombstones (zset order id by done ms)
KEYS[6]  book order tombstone statuses (hash order id -> final status)
KEYS[7]  the outbox's index of unrelayed outboxes (set)

ARGV[1]  order id
ARGV[2]  SHA-1 of the order JSON as read
ARGV[3]  done order JSON (status ARGV[9])
ARGV[4]  book name
ARGV[5]  event time, ms
ARGV[6]  how many done orders the book keeps (the oldest are dropped)
ARGV[7]  how long a tombstone is kept, ms
ARGV[8]  how many tombstones the book keeps
ARGV[9]  final status: cancelled (event order.cancelled) or expired (event order.expired)
ARGV[10] the id of the request (or job) that caused the change, '' for none: the outbox entry's 'req'

Returns  {1, order JSON}         closed (cancelled or expired, as ARGV[7] says)
         {-1}                    stale: the order changed since it was read (read it again)
         {-2}                    not resting any more
         {-3, 'unknown_status'}  refused: ARGV[9] is not cancelled or expired; nothing written
Events:  the event of the status (order.cancelled or order.expired) with the order, on 1 only.

Every key is the account's (one hash tag, one cluster slot). The order's entries in the
cross-account order and expiry indexes are taken out after this script, on 1 and -2
(order-hints.ts).
]]
-- every key touched before any write: on a Redis Cluster, a key of a slot being migrated fails the script at its
-- first access, so a migration refuses the whole change (retryable) instead of stopping it halfway
for i = 1, #KEYS do redis.call('EXISTS', KEYS[i]) end
local EVENT_OF = { cancelled = 'order.cancelled', expired = 'order.expired' }
local event = EVENT_OF[ARGV[9]]
if not event then return {-3, 'unknown_status'} end

if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return {-2} end
local current = redis.call('HGET', KEYS[2], ARGV[1])
if not current or redis.sha1hex(current) ~= ARGV[2] then return {-1} end

redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[1])
-- the oldest done orders beyond the kept ones leave the book, each as a tombstone (lua/includes/retire-done-orders.lua)
retire_done_orders(KEYS[2], KEYS[3], KEYS[5], KEYS[6], ARGV[6], ARGV[5], ARGV[7], ARGV[8])
outbox_add(KEYS[4], ARGV[10], 'event', event, 'book', ARGV[4], 'ts', ARGV[5], 'order', ARGV[3])
-- indexes the outbox and wakes the relays (lua/includes/outbox-appended.lua)
outbox_appended(KEYS[4], KEYS[7])
return {1, ARGV[3]}
