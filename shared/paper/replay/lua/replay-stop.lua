--[[
replay-stop: ends a key's replay once its journal holds no open position (the caller closed them
at the cursor first): deletes the state and empties the journal.

KEYS[1]  the key's replay state (hash)
KEYS[2]  journal open positions (hash)
KEYS[3]  journal closed positions (hash)
KEYS[4]  journal closed positions by close time (zset)
KEYS[5]  journal counters (hash)
KEYS[6]  journal event stream
KEYS[7]  the account's replay journal names (set)

ARGV[1]  replay id
ARGV[2]  journal book name

Returns  {1}         stopped, journal emptied
         {-1, open}  a position was opened meanwhile: close it and call again
         {-2}        no such replay (stopped already, or replaced)
Events:  none.
]]
-- every key touched before any write: on a Redis Cluster, a key of a slot being migrated fails the script at its
-- first access, so a migration refuses the whole change (retryable) instead of stopping it halfway
for i = 1, #KEYS do redis.call('EXISTS', KEYS[i]) end
if redis.call('HGET', KEYS[1], 'id') ~= ARGV[1] then return {-2} end
local open = redis.call('HLEN', KEYS[2])
if open > 0 then return {-1, open} end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6])
redis.call('SREM', KEYS[7], ARGV[2])
return {1}
