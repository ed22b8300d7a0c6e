--[[
trades-prune: the retention's step on one book: removes at most ARGV[2] closed trades that closed before
ARGV[1], those of the book's oldest reset archive first (its trades are older than the live ones), and folds
each into the book's compact counters (keys.bookPruned), so the ledger still adds up: balance = starting
balance + the trades kept + the pruned aggregate. Then moves the book in its slot's prune index to the oldest
close time it may still hold, or takes it out when it holds none. Safe to run twice or beside a close: every
trade is removed and counted in the same step, once.

KEYS[1]  book closed positions (hash id -> position JSON)
KEYS[2]  book closed positions by close time (zset id by closed_ts)
KEYS[3]  book counters (hash): its reset_ts says which reset the live trades belong to
KEYS[4]  book pruned counters (hash, keys.bookPruned)
KEYS[5]  book archives (zset reset_ts by reset_ts)
KEYS[6]  archive of the oldest reset, closed positions (hash); KEYS[1] when ARGV[4] is ''
KEYS[7]  archive of the oldest reset, close times (zset); KEYS[2] when ARGV[4] is ''
KEYS[8]  the slot's trade prune index (zset book by oldest close time, keys.tradePruneIndex)

ARGV[1]  cutoff, ms: trades closed before it are pruned
ARGV[2]  at most this many trades in this call
ARGV[3]  the book's member in the index (its KEYS[2])
ARGV[4]  reset_ts of the oldest archive as read before the call ('' none); when it is no longer the oldest,
         nothing is pruned and the reply asks for another call

Returns  {pruned trades, 1 when the book may still hold trades before the cutoff (call again) else 0}
Events:  none (the trades were long settled; no client is told).
]]
for i = 1, #KEYS do redis.call('EXISTS', KEYS[i]) end
local cutoff = tonumber(ARGV[1])
local left = tonumber(ARGV[2])

-- the period counters name the reset they count from: after a later reset they are archived trades (life_* only)
local reset = redis.call('HGET', KEYS[3], 'reset_ts') or '0'
if (redis.call('HGET', KEYS[4], 'reset_ts') or '0') ~= reset then
  redis.call('HSET', KEYS[4], 'reset_ts', reset, 'realized_cents', 0, 'closed', 0, 'wins', 0, 'liquidations', 0)
  redis.call('HDEL', KEYS[4], 'best_cents')
end

-- removes up to `left` trades of one set closed before the cutoff and counts them (`current`: since the reset)
local function fold(hash, times, current)
  local ids = redis.call('ZRANGEBYSCORE', times, '-inf', '(' .. cutoff, 'LIMIT', 0, left)
  if #ids == 0 then return end
  local raws = redis.call('HMGET', hash, unpack(ids))
  local cents, wins, liquidations, best, n = 0, 0, 0, nil, 0
  for _, raw in ipairs(raws) do
    if raw then
      local trade = cjson.decode(raw)
      -- as the ledger audit reads it: pnl_usd is cents / 100 (Math.round)
      local c = math.floor((tonumber(trade.pnl_usd) or 0) * 100 + 0.5)
      n = n + 1
      cents = cents + c
      if c > 0 then wins = wins + 1 end
      if trade.liquidated == true then liquidations = liquidations + 1 end
      if best == nil or c > best then best = c end
    end
  end
  redis.call('HDEL', hash, unpack(ids))
  redis.call('ZREM', times, unpack(ids))
  left = left - #ids
  redis.call('HINCRBY', KEYS[4], 'life_realized_cents', cents)
  redis.call('HINCRBY', KEYS[4], 'life_closed', n)
  redis.call('HINCRBY', KEYS[4], 'life_wins', wins)
  if current and n > 0 then
    redis.call('HINCRBY', KEYS[4], 'realized_cents', cents)
    redis.call('HINCRBY', KEYS[4], 'closed', n)
    redis.call('HINCRBY', KEYS[4], 'wins', wins)
    redis.call('HINCRBY', KEYS[4], 'liquidations', liquidations)
    local was = redis.call('HGET', KEYS[4], 'best_cents')
    if not was or best > tonumber(was) then redis.call('HSET', KEYS[4], 'best_cents', best) end
  end
end

local pruned = tonumber(ARGV[2])
-- a lower bound of the oldest close time the book may hold after this step (nil: none)
local oldest = nil
local first_archive = redis.call('ZRANGE', KEYS[5], 0, 0)[1]
if first_archive ~= nil and first_archive ~= ARGV[4] then
  -- a reset or another step changed the archives since the caller read them: nothing this call, it reads them again
  oldest = 0
elseif first_archive ~= nil then
  fold(KEYS[6], KEYS[7], false)
  local first = redis.call('ZRANGE', KEYS[7], 0, 0, 'WITHSCORES')
  if first[2] then
    oldest = tonumber(first[2])
  else
    redis.call('DEL', KEYS[6], KEYS[7])
    redis.call('ZREM', KEYS[5], ARGV[4])
    -- a later archive's trades closed after this archive's reset
    if redis.call('ZCARD', KEYS[5]) > 0 then oldest = tonumber(ARGV[4]) end
  end
end
if oldest == nil then
  if left > 0 then fold(KEYS[1], KEYS[2], true) end
  local first = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  if first[2] then oldest = tonumber(first[2]) end
end
pruned = pruned - left

if oldest == nil then
  redis.call('ZREM', KEYS[8], ARGV[3])
else
  redis.call('ZADD', KEYS[8], oldest, ARGV[3])
end
return {pruned, (oldest ~= nil and oldest < cutoff) and 1 or 0}
