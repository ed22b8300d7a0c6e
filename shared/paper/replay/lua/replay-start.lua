--[[
replay-start: records a key's replay, unless the key already has one (running or finished).

KEYS[1]  the key's replay state (hash)

ARGV[1..n]  field, value pairs of the new state (id first)

Returns  {1}               started
         {-1, replay id}   refused: the key has a replay (replay_running)
Events:  none (the replay journal's events never reach the outbox).
]]
-- every key touched before any write: on a Redis Cluster, a key of a slot being migrated fails the script at its
-- first access, so a migration refuses the whole change (retryable) instead of stopping it halfway
for i = 1, #KEYS do redis.call('EXISTS', KEYS[i]) end
local current = redis.call('HGET', KEYS[1], 'id')
if current then return {-1, current} end
redis.call('HSET', KEYS[1], unpack(ARGV))
return {1}
