--[[
whsink-record: keeps one delivery at a whsink address, within the address's own budget, the
cap on addresses holding deliveries at once, and the sending client's budget of new addresses (so
one client cannot take the whole cap). Every address lives in one hash slot ({sinks}), so
one script sees them all; the cap bounds what that slot holds. An address refused for the cap
writes nothing (not even a rate count), so a flood of new tokens costs no memory.

KEYS[1]  whsink:{sinks}:<digest>         list of JSON deliveries, newest first
KEYS[2]  whsink:{sinks}:<digest>:rate    deliveries in the address's current window (integer, expires with it)
KEYS[3]  whsink:{sinks}:live             zset digest by the ms its deliveries lapse
KEYS[4]  whsink:{sinks}:client:<digest>  new addresses the sending client made in its window (integer, expires with it)

ARGV[1]  now, ms
ARGV[2]  how long deliveries are kept, ms
ARGV[3]  deliveries kept per address
ARGV[4]  deliveries per window per address
ARGV[5]  window length, ms
ARGV[6]  addresses holding deliveries at once, at most
ARGV[7]  the address's digest
ARGV[8]  the delivery, JSON
ARGV[9]  new addresses per window per client
ARGV[10] the client's window, ms

Returns  {1, deliveries held}   recorded
         {0, ms left}           refused: the address's budget for this window is spent
         {-1, ms left}          refused: the cap of addresses is reached; ms until the oldest lapses
         {-2, ms left}          refused: a new address past the client's budget; ms until its window ends
Events:  none.
]]
local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
if not redis.call('ZSCORE', KEYS[3], ARGV[7]) then
  if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[6]) then
    local oldest = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
    return {-1, math.max(1, tonumber(oldest[2]) - now)}
  end
  local made, madeLeft = count_in_window(KEYS[4], ARGV[10])
  if made > tonumber(ARGV[9]) then return {-2, madeLeft} end
end
-- the call counted in the window (rate-window.lua, sent ahead of this script)
local calls, left = count_in_window(KEYS[2], ARGV[5])
if calls > tonumber(ARGV[4]) then return {0, left} end
redis.call('LPUSH', KEYS[1], ARGV[8])
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[3]) - 1)
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('ZADD', KEYS[3], now + ttl, ARGV[7])
redis.call('PEXPIRE', KEYS[3], ttl)
return {1, redis.call('LLEN', KEYS[1])}
