--[[
book-reset: restarts a book at its starting balance when it holds no open position: archives its
closed positions, cancels its resting orders and zeroes its counters since the last reset
(the life_* counters are kept).

KEYS[1]  book open positions (hash)
KEYS[2]  book closed positions (hash)
KEYS[3]  book closed positions by close time (zset)
KEYS[4]  book counters (hash)
KEYS[5]  book resting orders (zset order id by placed ms)
KEYS[6]  archive of the closed positions for this reset (hash; must not exist)
KEYS[7]  archive of the close times for this reset (zset; must not exist)
KEYS[8]  book archives (zset reset_ts by reset_ts)
KEYS[9]  account outbox (stream)
KEYS[10] account paper books (set)
KEYS[11] book orders (hash order id -> order JSON)
KEYS[12] book done orders (zset order id by done ms)
KEYS[13] book order tombstones (zset order id by done ms)
KEYS[14] book order tombstone statuses (hash order id -> final status)
KEYS[15] book equity curve (zset; see position-close.lua): dropped, the curve restarts at 0
KEYS[16] book day bucket of the reset's UTC day (hash): dropped, so the day counts only what
         closes after the reset; the readers skip the buckets of earlier days
KEYS[17] the outbox's index of unrelayed outboxes (set)

ARGV[1]  reset time, ms
ARGV[2]  starting balance, USD
ARGV[3]  book name
ARGV[4]  how many done orders the book keeps (the oldest are dropped)
ARGV[5]  how long a tombstone is kept, ms
ARGV[6]  how many tombstones the book keeps
ARGV[7]  the id of the request (or job) that caused the change, '' for none: the outbox entry's 'req'

Returns  {1, archived trades, cancelled orders}  reset
         {-1, open count}                          refused: open positions exist (open_positions_exist)
         {-2}                                      an archive for this reset time exists (retry a ms later)
Events:  order.cancelled with each cancelled order (status cancelled, note 'book reset'), then
         book.reset {book, reset_ts, archived_trades, cancelled_orders}, on 1 only.

The cancelled orders' entries in the cross-account order indexes are left behind: they are hints,
dropped when a candle or the expiry job next finds them. Order JSON keeps numbers to 12
significant digits, so cjson (14) writes them back unchanged.
]]
-- every key touched before any write: on a Redis Cluster, a key of a slot being migrated fails the script at its
-- first access, so a migration refuses the whole change (retryable) instead of stopping it halfway
for i = 1, #KEYS do redis.call('EXISTS', KEYS[i]) end
local open = redis.call('HLEN', KEYS[1])
if open > 0 then return {-1, open} end
if redis.call('EXISTS', KEYS[6]) == 1 or redis.call('EXISTS', KEYS[7]) == 1 then return {-2} end

local archived = redis.call('HLEN', KEYS[2])
if archived > 0 then
  redis.call('RENAME', KEYS[2], KEYS[6])
  redis.call('RENAME', KEYS[3], KEYS[7])
  redis.call('ZADD', KEYS[8], ARGV[1], ARGV[1])
end
local resting = redis.call('ZRANGE', KEYS[5], 0, -1)
local cancelled = #resting
for _, id in ipairs(resting) do
  local raw = redis.call('HGET', KEYS[11], id)
  if raw then
    local order = cjson.decode(raw)
    order.status = 'cancelled'
    order.done_ts = tonumber(ARGV[1])
    order.note = 'book reset'
    local done = cjson.encode(order)
    redis.call('HSET', KEYS[11], id, done)
    redis.call('ZADD', KEYS[12], ARGV[1], id)
    outbox_add(KEYS[9], ARGV[7], 'event', 'order.cancelled', 'book', ARGV[3], 'ts', ARGV[1], 'order', done)
  end
end
redis.call('DEL', KEYS[5])
-- the oldest done orders beyond the kept ones leave the book, each as a tombstone (lua/includes/retire-done-orders.lua)
retire_done_orders(KEYS[11], KEYS[12], KEYS[13], KEYS[14], ARGV[4], ARGV[1], ARGV[5], ARGV[6])

redis.call('HSET', KEYS[4], 'reset_ts', ARGV[1], 'starting_balance', ARGV[2], 'realized_cents', 0, 'closed', 0,
  'wins', 0, 'losses', 0, 'liquidations', 0)
redis.call('HDEL', KEYS[4], 'best_cents')
redis.call('DEL', KEYS[15], KEYS[16])
redis.call('SADD', KEYS[10], ARGV[3])
outbox_add(KEYS[9], ARGV[7], 'event', 'book.reset', 'book', ARGV[3], 'ts', ARGV[1],
  'reset', cjson.encode({book = ARGV[3], reset_ts = tonumber(ARGV[1]), archived_trades = archived, cancelled_orders = cancelled}))
-- indexes the outbox and wakes the relays (lua/includes/outbox-appended.lua)
outbox_appended(KEYS[9], KEYS[17])
return {1, archived, cancelled}
