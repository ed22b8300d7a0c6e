--[[
outbox-ack: removes relayed entries from an account outbox, only while the caller still holds the
outbox lease, and extends the lease. An entry leaves the outbox only after it was published and
its webhook jobs were queued, so a relay that dies before this step leaves it for the next relay.
An outbox left empty leaves its slot's index (keys.outboxIndex) in the same step: a script that
appends later indexes it again (lua/includes/outbox-appended.lua), so no entry is ever unindexed.

KEYS[1]  outbox lease (string: the relay id)
KEYS[2]  account outbox (stream)
KEYS[3]  the outbox's slot's index of unrelayed outboxes (set of outbox keys)

ARGV[1]  relay id
ARGV[2]  lease time to live, ms
ARGV[3..] the relayed entry ids (none: only drops an empty outbox from the index)

Returns  entries left in the outbox (>= 0), or -1 when the lease is no longer this relay's (nothing removed)
Events:  none.
]]
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if #ARGV >= 3 then redis.call('XDEL', KEYS[2], unpack(ARGV, 3)) end
local left = redis.call('XLEN', KEYS[2])
if left == 0 then redis.call('SREM', KEYS[3], KEYS[2]) end
return left
