--[[
order-fill: a candle reached a resting order's level. If the order is still resting and unchanged
since it was read, it fills: the position opens (priced at the level in TypeScript) in the same step,
exactly as position-open.lua opens one. When the book already holds its cap of open positions, or
an open position of the symbol on the other side (one-way mode: a fill never turns a long book
short or the reverse), the order is closed as rejected, with a note, and no position opens.

KEYS[1]  book resting orders (zset order id by placed ms)
KEYS[2]  book orders (hash order id -> order JSON)
KEYS[3]  book done orders (zset order id by done ms)
KEYS[4]  book open positions (hash id -> position JSON)
KEYS[5]  account outbox (stream)
KEYS[6]  account paper books (set)
KEYS[7]  book order tombstones (zset order id by done ms)
KEYS[8]  book order tombstone statuses (hash order id -> final status)
KEYS[9]  the outbox's index of unrelayed outboxes (set)

ARGV[1]  order id
ARGV[2]  SHA-1 of the order JSON as read
ARGV[3]  filled order JSON (status filled, with position_id)
ARGV[4]  rejected order JSON (status rejected, with a note), used when the open cap blocks the fill
ARGV[5]  position id
ARGV[6]  position JSON (status open)
ARGV[7]  open cap of the book
ARGV[8]  book name
ARGV[9]  event time, ms
ARGV[10] how many done orders the book keeps (the oldest are dropped)
ARGV[11] how long a tombstone is kept, ms
ARGV[12] how many tombstones the book keeps
ARGV[13] rejected order JSON (status rejected, with a note), used when one-way mode blocks the fill
ARGV[14] the id of the request (or job) that caused the change, '' for none: the outbox entry's 'req'

Returns  {1}              filled: the position is open
         {2, open count}  rejected: the book holds the cap of open positions
         {3, position id} rejected: that open position of the symbol is on the other side
         {-1}             stale: the order changed since it was read (read it again)
         {-2}             not resting any more
Events:  order.filled with the order and the position, then position.opened, on 1;
         order.cancelled with the rejected order (status rejected, note), on 2 and 3.

Every key is the account's (one hash tag, one cluster slot). Around this script (order-store.ts):
the position's entries in the per-symbol trigger indexes go in before it (trigger-hints.ts) and
come out again unless it returns 1; the order's entries in the order and expiry indexes come out
after it on 1, 2 and -2 (order-hints.ts).
]]
-- every key touched before any write: on a Redis Cluster, a key of a slot being migrated fails the script at its
-- first access, so a migration refuses the whole change (retryable) instead of stopping it halfway
for i = 1, #KEYS do redis.call('EXISTS', KEYS[i]) end
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return {-2} end
local current = redis.call('HGET', KEYS[2], ARGV[1])
if not current or redis.sha1hex(current) ~= ARGV[2] then return {-1} end

local open = redis.call('HLEN', KEYS[4])
local blocked = open >= tonumber(ARGV[7])
local done = blocked and ARGV[4] or ARGV[3]
-- one-way mode: the first open position of the symbol on the other side blocks the fill. Positions
-- carry symbol and side as the position JSON of ARGV[6] does (one builder makes both); the scan
-- reads the book's open positions, at most its open cap
local opposite = nil
if not blocked then
  local mine = cjson.decode(ARGV[6])
  local book = redis.call('HGETALL', KEYS[4])
  for i = 1, #book, 2 do
    local p = cjson.decode(book[i + 1])
    if p.symbol == mine.symbol and p.side ~= mine.side then
      opposite = book[i]
      done = ARGV[13]
      break
    end
  end
end

redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], done)
redis.call('ZADD', KEYS[3], ARGV[9], ARGV[1])
-- the oldest done orders beyond the kept ones leave the book, each as a tombstone (lua/includes/retire-done-orders.lua)
retire_done_orders(KEYS[2], KEYS[3], KEYS[7], KEYS[8], ARGV[10], ARGV[9], ARGV[11], ARGV[12])

if blocked or opposite then
  outbox_add(KEYS[5], ARGV[14], 'event', 'order.cancelled', 'book', ARGV[8], 'ts', ARGV[9], 'order', done)
  -- indexes the outbox and wakes the relays (lua/includes/outbox-appended.lua)
  outbox_appended(KEYS[5], KEYS[9])
  if blocked then return {2, open} end
  return {3, opposite}
end

redis.call('HSET', KEYS[4], ARGV[5], ARGV[6])
redis.call('SADD', KEYS[6], ARGV[8])
outbox_add(KEYS[5], ARGV[14], 'event', 'order.filled', 'book', ARGV[8], 'ts', ARGV[9], 'order', done, 'position', ARGV[6])
outbox_add(KEYS[5], ARGV[14], 'event', 'position.opened', 'book', ARGV[8], 'ts', ARGV[9], 'position', ARGV[6])
outbox_appended(KEYS[5], KEYS[9])
return {1}
