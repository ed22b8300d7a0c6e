--[[
key-revoke: marks one key revoked. Its record and usage history stay; it stops counting against max_keys.

KEYS[1]  acct:{id}:key:<keyId>   hash of the key
KEYS[2]  acct:{id}:keys:active   set of keyId (not revoked)

ARGV[1]  key id
ARGV[2]  revoked at, epoch ms

Returns  1 revoked; 0 it was revoked already; -1 no such key
Events: none.
]]
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HEXISTS', KEYS[1], 'revoked') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'revoked', ARGV[2])
redis.call('SREM', KEYS[2], ARGV[1])
return 1
