--[[
webhook-outcome: records one delivery attempt on a webhook's counters; a failure that makes the
consecutive failures reach the pause threshold pauses the hook (the relay stops queueing for it).

KEYS[1]  the webhook's counters (hash)
KEYS[2]  account paused webhooks (set)
KEYS[3]  account webhooks (hash hookId -> JSON)

ARGV[1]  hook id
ARGV[2]  1 when the receiver answered 2xx in time, else 0
ARGV[3]  HTTP status the receiver answered, or '' when none
ARGV[4]  the error, '' on success
ARGV[5]  attempt time, ms
ARGV[6]  consecutive failures that pause the hook

Returns  1 recorded, 2 recorded and the hook is now paused, 0 the hook was deleted (nothing recorded)
Events:  none.
]]
if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'last_status', ARGV[3], 'last_attempt_ts', ARGV[5])
if ARGV[2] == '1' then
  redis.call('HINCRBY', KEYS[1], 'deliveries', 1)
  redis.call('HSET', KEYS[1], 'consecutive_failures', 0, 'last_success_ts', ARGV[5])
  return 1
end
redis.call('HINCRBY', KEYS[1], 'failures', 1)
redis.call('HSET', KEYS[1], 'last_error', ARGV[4])
local streak = redis.call('HINCRBY', KEYS[1], 'consecutive_failures', 1)
if streak >= tonumber(ARGV[6]) and redis.call('SADD', KEYS[2], ARGV[1]) == 1 then return 2 end
return 1
