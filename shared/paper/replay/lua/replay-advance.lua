--[[
replay-advance: moves a replay's sweep frontier past one swept minute (compare-and-set), so a
minute is counted swept once: a second clock, or the same job run again after its worker was lost,
finds the frontier moved and sweeps from there (the sweep of a minute is itself idempotent).

KEYS[1]  the key's replay state (hash)
KEYS[2]  the replay journal's event stream

ARGV[1]  replay id
ARGV[2]  swept_to as read (ms)
ARGV[3]  the new swept_to: the end of the minute just swept (ms)
ARGV[4]  end of the day (ms): reaching it sets finished
ARGV[5]  events kept in the journal's stream (approximate)

Returns  {1}            moved
         {-1, swept_to} stale: another clock moved it (its value)
         {-2}           the replay was stopped (or replaced)
Events:  none.
]]
-- every key touched before any write: on a Redis Cluster, a key of a slot being migrated fails the script at its
-- first access, so a migration refuses the whole change (retryable) instead of stopping it halfway
for i = 1, #KEYS do redis.call('EXISTS', KEYS[i]) end
if redis.call('HGET', KEYS[1], 'id') ~= ARGV[1] then return {-2} end
local swept = redis.call('HGET', KEYS[1], 'swept_to')
if swept ~= ARGV[2] then return {-1, swept} end
redis.call('HSET', KEYS[1], 'swept_to', ARGV[3])
if tonumber(ARGV[3]) >= tonumber(ARGV[4]) then redis.call('HSET', KEYS[1], 'finished', '1') end
redis.call('XTRIM', KEYS[2], 'MAXLEN', '~', ARGV[5])
return {1}
