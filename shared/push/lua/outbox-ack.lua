--[[
outbox-ack: removes relayed entries from an account outbox, only while the caller still holds the
outbox lease, and extends the lease. An entry leaves the outbox only after it was published and
its webhook jobs were queued, so a relay that dies before this step leaves it for the next relay.

KEYS[1]  outbox lease (string: the relay id)
KEYS[2]  account outbox (stream)

ARGV[1]  relay id
ARGV[2]  lease time to live, ms
ARGV[3..] the relayed entry ids

Returns  entries removed (>= 0), or -1 when the lease is no longer this relay's (nothing removed)
Events:  none.
]]
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if #ARGV < 3 then return 0 end
return redis.call('XDEL', KEYS[2], unpack(ARGV, 3))
