--[[
key-revoke: marks one key revoked. Its record and usage history stay; it stops counting against
max_keys. The pods holding the key's WebSocket streams are told to close them, in the same step,
so no stream of a revoked key outlives the revoke (a revoke of a revoked key tells them again).

KEYS[1]  acct:{id}:key:<keyId>   hash of the key
KEYS[2]  acct:{id}:keys:active   set of keyId (not revoked)

ARGV[1]  key id
ARGV[2]  revoked at, epoch ms
ARGV[3]  the account's channel (acct:{id}:events)
ARGV[4]  the notice to publish on it (JSON: close the key's sockets, 4401 revoked_key)

Returns  1 revoked; 0 it was revoked already; -1 no such key
Events:  publishes ARGV[4] on ARGV[3] unless there is no such key.
]]
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
redis.call('PUBLISH', ARGV[3], ARGV[4])
if redis.call('HEXISTS', KEYS[1], 'revoked') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'revoked', ARGV[2])
redis.call('SREM', KEYS[2], ARGV[1])
return 1
