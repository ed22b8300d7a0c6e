--[[
candle-close: stores one closed 1-minute candle, one per minute, preferring the higher-priority venue.

KEYS[1]  zset of closed candles of one symbol (score = openTime ms, member = candle JSON with a "venue" field)
ARGV[1]  openTime (ms)
ARGV[2]  candle JSON
ARGV[3]  the candle's venue
ARGV[4]  how many candles to keep (oldest trimmed)
ARGV[5]  key TTL in ms (refreshed on every store)
ARGV[6..] venue names in priority order, highest first

Returns
   1  first candle stored for this minute (the caller enqueues the sweep)
   2  replaced a candle of this minute from a venue of lower or equal priority
   0  kept: a higher-priority venue already delivered this minute
  -1  refused: older than everything kept while the set is full
Events: none.
]]
local key = KEYS[1]
local t = tonumber(ARGV[1])
local member = ARGV[2]
local venue = ARGV[3]
local keep = tonumber(ARGV[4])
local ttl = tonumber(ARGV[5])

local function rank(name)
  for i = 6, #ARGV do
    if ARGV[i] == name then return i end
  end
  return #ARGV + 1
end

local existing = redis.call('ZRANGEBYSCORE', key, t, t)
if #existing == 0 then
  if redis.call('ZCARD', key) >= keep then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    if #oldest == 2 and t < tonumber(oldest[2]) then return -1 end
  end
  redis.call('ZADD', key, t, member)
  redis.call('ZREMRANGEBYRANK', key, 0, -(keep + 1))
  redis.call('PEXPIRE', key, ttl)
  return 1
end

local mine = rank(venue)
for _, old in ipairs(existing) do
  local ok, decoded = pcall(cjson.decode, old)
  local theirs = (ok and type(decoded) == 'table' and decoded.venue) and rank(decoded.venue) or (#ARGV + 1)
  if theirs < mine then return 0 end
end
redis.call('ZREMRANGEBYSCORE', key, t, t)
redis.call('ZADD', key, t, member)
redis.call('PEXPIRE', key, ttl)
return 2
