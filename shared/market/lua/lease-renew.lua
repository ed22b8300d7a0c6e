--[[
lease-renew: extends a lease only while the caller still owns it.

KEYS[1]  lease key
ARGV[1]  owner id
ARGV[2]  new time to live, ms

Returns  1 renewed, 0 not the owner (lost or expired)
Events: none.
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
