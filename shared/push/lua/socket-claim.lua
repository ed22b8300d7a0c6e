--[[
socket-claim: takes (or renews) one slot of an account's WebSocket cap, across keys and pods.
Slots lapse at their score unless renewed, so the sockets of a pod that died free their slots.

KEYS[1]  account sockets (zset socket id by the ms its slot lapses)

ARGV[1]  now, ms
ARGV[2]  when the slot lapses, ms
ARGV[3]  the cap (sockets per account)
ARGV[4]  socket id (pod id and a counter)

Returns  {1, sockets held}  claimed (or renewed: a socket that holds a slot keeps it)
         {0, sockets held}  refused: the cap is reached
Events:  none.
]]
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if not redis.call('ZSCORE', KEYS[1], ARGV[4]) then
  local held = redis.call('ZCARD', KEYS[1])
  if held >= tonumber(ARGV[3]) then return {0, held} end
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return {1, redis.call('ZCARD', KEYS[1])}
