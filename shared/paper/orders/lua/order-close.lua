--[[
order-close: a resting order leaves the book as cancelled (cancel_order, on the client's request) or
expired (the expiry job, 30 days without a fill), if it is still resting and unchanged since it was
read. The done order JSON (status cancelled or expired) was built in TypeScript.

KEYS[1]  book resting orders (zset order id by placed ms)
KEYS[2]  book orders (hash order id -> order JSON)
KEYS[3]  book done orders (zset order id by done ms)
KEYS[4]  account outbox (stream)
KEYS[5]  order index of the symbol and direction (zset)
KEYS[6]  order expiry index (zset)

ARGV[1]  order id
ARGV[2]  SHA-1 of the order JSON as read
ARGV[3]  done order JSON (status ARGV[9])
ARGV[4]  order index member
ARGV[5]  expiry index member
ARGV[6]  book name
ARGV[7]  event time, ms
ARGV[8]  how many done orders the book keeps (the oldest are dropped)
ARGV[9]  final status: cancelled (event order.cancelled) or expired (event order.expired)

Returns  {1, order JSON}         closed (cancelled or expired, as ARGV[9] says)
         {-1}                    stale: the order changed since it was read (read it again)
         {-2}                    not resting any more; its index entries are dropped
         {-3, 'unknown_status'}  refused: ARGV[9] is not cancelled or expired; nothing written
Events:  the event of the status (order.cancelled or order.expired) with the order, on 1 only.
]]
local EVENT_OF = { cancelled = 'order.cancelled', expired = 'order.expired' }
local event = EVENT_OF[ARGV[9]]
if not event then return {-3, 'unknown_status'} end

if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZREM', KEYS[5], ARGV[4])
  redis.call('ZREM', KEYS[6], ARGV[5])
  return {-2}
end
local current = redis.call('HGET', KEYS[2], ARGV[1])
if not current or redis.sha1hex(current) ~= ARGV[2] then return {-1} end

redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[7], ARGV[1])
local extra = redis.call('ZCARD', KEYS[3]) - tonumber(ARGV[8])
if extra > 0 then
  redis.call('HDEL', KEYS[2], unpack(redis.call('ZRANGE', KEYS[3], 0, extra - 1)))
  redis.call('ZREMRANGEBYRANK', KEYS[3], 0, extra - 1)
end
redis.call('ZREM', KEYS[5], ARGV[4])
redis.call('ZREM', KEYS[6], ARGV[5])
redis.call('XADD', KEYS[4], '*', 'event', event, 'book', ARGV[6], 'ts', ARGV[7], 'order', ARGV[3])
-- wakes the outbox relay (shared/push); a nudge nobody hears is found by its periodic scan
redis.call('PUBLISH', 'pd:outbox', KEYS[4])
return {1, ARGV[3]}
