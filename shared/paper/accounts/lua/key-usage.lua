--[[
key-usage: adds a key's successful calls of one UTC day to its counters (UsageBatcher flushes one
call of this per key and day it counted): one command instead of four, which is what an API pod
pays per key in each flush.

KEYS[1]  acct:{id}:key:<keyId>             hash of the key (calls, last)
KEYS[2]  acct:{id}:key:<keyId>:day:<day>   the key's calls that UTC day (integer, expires)

ARGV[1]  calls to add
ARGV[2]  time of the latest of them, epoch ms
ARGV[3]  time to live of the day counter, ms

Returns  the day's count after the add
Events: none.
]]
redis.call('HINCRBY', KEYS[1], 'calls', ARGV[1])
redis.call('HSET', KEYS[1], 'last', ARGV[2])
local today = redis.call('INCRBY', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return today
