--[[
key-create: adds one API key to an account, within its plan's key and book limits.

KEYS[1]  acct:{id}:keys          zset keyId by created ms
KEYS[2]  acct:{id}:keys:active   set of keyId (not revoked)
KEYS[3]  acct:{id}:books         zset named book by created ms
KEYS[4]  acct:{id}:key:<keyId>   hash of the new key; must not exist

ARGV[1]  key id
ARGV[2]  key name
ARGV[3]  book name, '' for the main account
ARGV[4]  created, epoch ms
ARGV[5]  the plan's max active keys
ARGV[6]  the plan's max named books
ARGV[7]  the key's HMAC secret sealed under the server's key (exchange dialects), '' for none

Returns  1 created; 0 the key id is taken; -1 max_keys; -2 max_books
Events: none. The key's digest index (a cross-account key) is written by the caller afterwards.
]]
if redis.call('EXISTS', KEYS[4]) == 1 then return 0 end
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[5]) then return -1 end
local book = ARGV[3]
if book ~= '' and not redis.call('ZSCORE', KEYS[3], book) then
  if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[6]) then return -2 end
  redis.call('ZADD', KEYS[3], ARGV[4], book)
end
redis.call('HSET', KEYS[4], 'id', ARGV[1], 'name', ARGV[2], 'book', book, 'created', ARGV[4], 'calls', 0)
if ARGV[7] ~= '' then redis.call('HSET', KEYS[4], 'hmac', ARGV[7]) end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
redis.call('SADD', KEYS[2], ARGV[1])
return 1
