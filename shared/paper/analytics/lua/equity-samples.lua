--[[
equity-samples: a book's running totals (realized P&L in cents and closes since the reset) just
before each time of a grid, from its equity curve (written by position-close.lua: one entry per
minute with a close, holding the totals at the end of that minute). One lookup per time, so the
cost is the points asked, never the trades made. Read-only.

KEYS[1]  book equity curve (zset minute -> 'minute:cents:closes')

ARGV[1]  first time, ms (a minute boundary)
ARGV[2]  step, ms
ARGV[3]  how many times

Returns  {cents, closes, cents, closes, ...}: the totals of the entries before each time (0, 0 before any)
Events:  none (read-only).
]]
local first, step, count = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local out = {}
for k = 0, count - 1 do
  local t = first + k * step
  local entry = redis.call('ZREVRANGEBYSCORE', KEYS[1], '(' .. string.format('%d', t), '-inf', 'LIMIT', 0, 1)[1]
  if entry then
    local _, c, n = string.match(entry, '^(%d+):(-?%d+):(%d+)$')
    out[#out + 1] = tonumber(c)
    out[#out + 1] = tonumber(n)
  else
    out[#out + 1] = 0
    out[#out + 1] = 0
  end
end
return out
