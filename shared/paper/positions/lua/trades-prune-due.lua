#!lua flags=no-writes,allow-cross-slot-keys
--[[
trades-prune-due: the books that a step of slots' trade prune indexes (keys.tradePruneIndexOfSlot) name as holding
trades closed before the cutoff, in one command instead of one per slot; at most ARGV[2] of them. Read-only; the
indexes span many slots, all served by the node it is sent to, so they are named in ARGV (as outbox-index-read.lua).

KEYS       none
ARGV[1]    cutoff, ms
ARGV[2]    at most this many books
ARGV[3..]  prune indexes (zset book by oldest close time), one per slot, all on the node the call is sent to

Returns  the books' members (their closed-by-time key), oldest first within a slot
Events:  none.
]]
local cutoff = '(' .. ARGV[1]
local left = tonumber(ARGV[2])
local found = {}
for i = 3, #ARGV do
  if left <= 0 then break end
  local due = redis.call('ZRANGEBYSCORE', ARGV[i], '-inf', cutoff, 'LIMIT', 0, left)
  for _, book in ipairs(due) do found[#found + 1] = book end
  left = left - #due
end
return found
