--[[
ai-quota-take: takes one /ai read from an account's daily quota, unless it is used up. Checked and
counted in one step, so two pods answering at once never let the count pass the quota.

KEYS[1]  the account's reads of this UTC day (string count)

ARGV[1]  the plan's reads per day
ARGV[2]  when the count expires, ms (two days after the day began: yesterday's count is gone by then)

Returns  {1, reads used}  taken
         {0, reads used}  refused: the quota is used up
Events:  none.
]]
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return {0, used} end
used = redis.call('INCR', KEYS[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return {1, used}
