#!lua flags=no-writes,allow-cross-slot-keys
--[[
outbox-index-read: the outbox keys that a step of slots' index sets hold (keys.outboxIndexOfSlot), in one
command instead of one per slot. Read-only; the sets span many slots, all served by the node it is sent to.
They are named in ARGV, not KEYS: a cluster requires a script's declared keys to share one slot, while Redis 7's
allow-cross-slot-keys lets it read undeclared keys of every slot the node serves (one it does not: an error).

KEYS       none
ARGV[1..]  index sets (set of outbox keys), one per slot, all on the node the call is sent to

Returns  the outbox keys they hold (any order)
Events:  none.
]]
local found = {}
for i = 1, #ARGV do
  for _, outbox in ipairs(redis.call('SMEMBERS', ARGV[i])) do found[#found + 1] = outbox end
end
return found
