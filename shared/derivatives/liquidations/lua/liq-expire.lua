--[[
liq-expire: moves the 24 h window forward: subtracts from the totals every 5-minute block that has
fully left it, and drops raw events older than the window from the tail of the raw list.

KEYS[1]  liq:{liq}:tot24 (see liq-ingest.lua)

ARGV[1]  now, ms
ARGV[2]  totals window, ms
ARGV[3]  most blocks handled per call
ARGV[4]  key prefix "liq:{liq}:"
ARGV[5]  most raw events dropped per call

Reads and deletes the w:<block> hashes; pops the raw list's tail (encoded events start "[<ts>,").

Returns  the number of blocks subtracted
Events:  none.
]]
local now = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[2])
local maxBlocks = tonumber(ARGV[3])
local p = ARGV[4]
local maxPops = tonumber(ARGV[5])
local tot = KEYS[1]

local rawKey = p .. 'raw'
for _ = 1, maxPops do
  local last = redis.call('LINDEX', rawKey, -1)
  local ts = last and tonumber(string.match(last, '^%[(%d+)'))
  if not ts or ts >= now - windowMs then break end
  redis.call('RPOP', rawKey)
end

local expired = tonumber(redis.call('HGET', tot, '_expired') or '')
if not expired then return 0 end
local target = math.floor((now - windowMs) / 300000) - 1
local last = math.min(target, expired + maxBlocks)
local n = 0
for block = expired + 1, last do
  local key = p .. 'w:' .. block
  local flat = redis.call('HGETALL', key)
  for j = 1, #flat, 2 do
    local left = redis.call('HINCRBY', tot, flat[j], -tonumber(flat[j + 1]))
    if left <= 0 then redis.call('HDEL', tot, flat[j]) end
  end
  if #flat > 0 then
    redis.call('DEL', key)
    n = n + 1
  end
end
if last > expired then redis.call('HSET', tot, '_expired', last) end
return n
