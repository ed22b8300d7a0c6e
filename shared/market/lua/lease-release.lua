--[[
lease-release: gives a lease up, only when the caller still owns it, so a standby takes over at once.

KEYS[1]  lease key
ARGV[1]  owner id

Returns  1 released, 0 not the owner
Events: none.
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
