--[[
socket-trim: holds an account's WebSocket slots to its cap (a plan change lowered it). The slots
beyond the cap are dropped and a notice naming their sockets goes out on the account's channel,
so the pods holding them close them. The slots cut are those that lapse first: a dead pod's,
not renewed, go before any live socket's.

KEYS[1]  account sockets (zset socket id by the ms its slot lapses)

ARGV[1]  now, ms
ARGV[2]  the cap (sockets per account)
ARGV[3]  the account's channel (acct:{id}:events)
ARGV[4]  close code of the cut sockets
ARGV[5]  close reason

Returns  how many sockets were cut
Events:  publishes {cut: {sockets: [socket id...]}, code, reason} on ARGV[3] when any were cut.
]]
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local excess = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[2])
if excess <= 0 then return 0 end
local over = redis.call('ZRANGE', KEYS[1], 0, excess - 1)
redis.call('ZREM', KEYS[1], unpack(over))
redis.call('PUBLISH', ARGV[3], cjson.encode({cut = {sockets = over}, code = tonumber(ARGV[4]), reason = ARGV[5]}))
return #over
