--[[
webhook-add: registers a webhook within the plan's cap, atomically (two racing adds never exceed it).

KEYS[1]  account webhooks (hash hookId -> JSON)

ARGV[1]  hook id
ARGV[2]  hook JSON
ARGV[3]  the plan's webhook cap

Returns  {1, webhooks held}   added
         {-1, webhooks held}  refused: the cap is reached (too_many_webhooks)
Events:  none.
]]
local held = redis.call('HLEN', KEYS[1])
if held >= tonumber(ARGV[3]) then return {-1, held} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return {1, held + 1}
