--[[
trigger-ranges: the members of eight score ranges of one symbol's trigger indexes, in one call
(the sweep asks every symbol for the levels its window crossed; eight ZRANGEBYSCORE per symbol
cost the client more than the ranges cost Redis). Read-only.

KEYS[1..8]  trigger indexes of one symbol (zsets; they share the symbol's hash tag)
ARGV[2i-1]  min score of KEYS[i] (a number, '(x' exclusive, '-inf'; '+inf' asks for nothing)
ARGV[2i]    max score of KEYS[i]

Returns  {1, members of KEYS[1], ..., members of KEYS[8]}
Events:  none (read-only).
]]
local out = {1}
for i = 1, #KEYS do
  out[i + 1] = redis.call('ZRANGEBYSCORE', KEYS[i], ARGV[2 * i - 1], ARGV[2 * i])
end
return out
