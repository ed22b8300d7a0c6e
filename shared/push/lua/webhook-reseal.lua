--[[
webhook-reseal: replaces a hook's stored JSON (one written before secrets were sealed, its secret in clear) with the
sealed form, only while it is still the JSON that was read: a hook deleted or replaced meanwhile is left as it is.

KEYS[1]  account webhooks (hash hookId -> JSON)

ARGV[1]  hook id
ARGV[2]  the JSON as read
ARGV[3]  the JSON with the secret sealed

Returns  1 replaced, 0 left (gone or changed)
Events:  none.
]]
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
