--[[
key-rename: gives an existing key (active or revoked) a new name.

KEYS[1]  acct:{id}:key:<keyId>   hash of the key

ARGV[1]  the new name

Returns  1 renamed; -1 no such key
Events: none.
]]
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
redis.call('HSET', KEYS[1], 'name', ARGV[1])
return 1
