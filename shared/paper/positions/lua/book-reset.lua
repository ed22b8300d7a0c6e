--[[
book-reset: restarts a book at its starting balance when it holds no open position: archives its
closed positions, cancels its resting orders and zeroes its counters since the last reset
(the life_* counters are kept).

KEYS[1]  book open positions (hash)
KEYS[2]  book closed positions (hash)
KEYS[3]  book closed positions by close time (zset)
KEYS[4]  book counters (hash)
KEYS[5]  book resting orders (zset)
KEYS[6]  archive of the closed positions for this reset (hash; must not exist)
KEYS[7]  archive of the close times for this reset (zset; must not exist)
KEYS[8]  book archives (zset reset_ts by reset_ts)
KEYS[9]  account outbox (stream)
KEYS[10] account paper books (set)

ARGV[1]  reset time, ms
ARGV[2]  starting balance, USD
ARGV[3]  book name

Returns  {1, archived trades, cancelled orders}  reset
         {-1, open count}                          refused: open positions exist (open_positions_exist)
         {-2}                                      an archive for this reset time exists (retry a ms later)
Events:  book.reset {book, reset_ts, archived_trades, cancelled_orders} on 1 only.
]]
local open = redis.call('HLEN', KEYS[1])
if open > 0 then return {-1, open} end
if redis.call('EXISTS', KEYS[6]) == 1 or redis.call('EXISTS', KEYS[7]) == 1 then return {-2} end

local archived = redis.call('HLEN', KEYS[2])
if archived > 0 then
  redis.call('RENAME', KEYS[2], KEYS[6])
  redis.call('RENAME', KEYS[3], KEYS[7])
  redis.call('ZADD', KEYS[8], ARGV[1], ARGV[1])
end
local cancelled = redis.call('ZCARD', KEYS[5])
redis.call('DEL', KEYS[5])

redis.call('HSET', KEYS[4], 'reset_ts', ARGV[1], 'starting_balance', ARGV[2], 'realized_cents', 0, 'closed', 0,
  'wins', 0, 'losses', 0, 'liquidations', 0)
redis.call('HDEL', KEYS[4], 'best_cents')
redis.call('SADD', KEYS[10], ARGV[3])
redis.call('XADD', KEYS[9], '*', 'event', 'book.reset', 'book', ARGV[3], 'ts', ARGV[1],
  'reset', cjson.encode({book = ARGV[3], reset_ts = tonumber(ARGV[1]), archived_trades = archived, cancelled_orders = cancelled}))
-- wakes the outbox relay (shared/push); a nudge nobody hears is found by its periodic scan
redis.call('PUBLISH', 'pd:outbox', KEYS[9])
return {1, archived, cancelled}
