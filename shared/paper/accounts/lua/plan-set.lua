--[[
plan-set: replaces an account's plan term, only if it is still the one the caller read
(the new term is computed in TypeScript from the old one; compare-and-set keeps two purchases
from losing one another).

KEYS[1]  acct:{id}:profile   hash with plan, plan_until and plan_source

ARGV[1]  plan as read ('' when the field was absent)
ARGV[2]  plan_until as read ('' when absent)
ARGV[3]  plan_source as read ('' when absent)
ARGV[4]  the new plan
ARGV[5]  the new plan_until, epoch ms ('' for Free: the field is removed)
ARGV[6]  the new plan_source: paid, trial or grant ('' for Free: the field is removed)

Returns  1 set; 0 the plan changed since it was read (read again and retry)
Events: none.
]]
local plan = redis.call('HGET', KEYS[1], 'plan') or ''
local untilMs = redis.call('HGET', KEYS[1], 'plan_until') or ''
local source = redis.call('HGET', KEYS[1], 'plan_source') or ''
if plan ~= ARGV[1] or untilMs ~= ARGV[2] or source ~= ARGV[3] then return 0 end
redis.call('HSET', KEYS[1], 'plan', ARGV[4])
for i, field in ipairs({'plan_until', 'plan_source'}) do
  local value = ARGV[4 + i]
  if value == '' then
    redis.call('HDEL', KEYS[1], field)
  else
    redis.call('HSET', KEYS[1], field, value)
  end
end
return 1
