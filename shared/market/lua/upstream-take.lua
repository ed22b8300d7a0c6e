--[[
upstream-take: takes one REST call from a venue's budget for the calls users drive (a token bucket shared by every API
pod), unless it is empty. The live feed's own calls never come here: a spent user budget cannot stop the feed.

KEYS[1]  the venue's bucket (hash: tokens, at)

ARGV[1]  now, ms (the pod's clock; a clock behind the last call's refills nothing)
ARGV[2]  tokens added per minute
ARGV[3]  the bucket's size (the burst)

Returns  {1, 0}                       taken
         {0, ms until a token is in}  refused: the bucket is empty
Events:  none.
]]
local now = tonumber(ARGV[1])
local perMs = tonumber(ARGV[2]) / 60000
local size = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or size
local at = tonumber(state[2]) or now
if now > at then
  tokens = math.min(size, tokens + (now - at) * perMs)
  at = now
end
local reply
if tokens >= 1 then
  tokens = tokens - 1
  reply = {1, 0}
else
  reply = {0, math.ceil((1 - tokens) / perMs)}
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(at))
-- a full bucket is the same as none
redis.call('PEXPIRE', KEYS[1], math.ceil(size / perMs) + 1000)
return reply
