--[[
liq-ingest: stores a batch of normalized liquidations, dropping replays, in one atomic step.

KEYS[1]  liq:{liq}:tot24   hash: rolling 24 h sums (c:<SYM>:<l|s> cents, n:<SYM>:<l|s> count,
                           xc:<EX>:<l|s> cents, xn:<EX>:<l|s> count) and _expired (last 5-minute block subtracted)

ARGV[1]  now, ms
ARGV[2]  dedup window, ms
ARGV[3]  totals window, ms (24 h)
ARGV[4]  raw list max length
ARGV[5]  per-symbol list max length
ARGV[6]  minute buckets kept after their day ends, ms
ARGV[7]  key prefix "liq:{liq}:"
ARGV[8]  the batch: one line per event ("\n"), fields separated by tabs: id, symbol, exchange,
         side (l|s), cents, whole dollars, ts (ms), per-symbol storage wanted (1|0), encoded event
         (one string rather than 9 arguments per event: cheaper for client and server)

Keys written besides KEYS[1] (all under the {liq} hash tag, named from ARGV[7]):
  seen:<n>       set of event ids received in the n-th half dedup window (receipt time); an id in
                 this or the previous set is a replay
  raw            list, newest first: every event (trimmed to 24 h by liq-expire.lua, to ARGV[4] here)
  ev:<SYM>       list, newest first: the symbol's last ARGV[5] events (symbols of the universe)
  m:<SYM>:<day>  BITFIELD u32 [long, short] whole dollars per minute of the UTC day
  w:<block>      hash like tot24: what a 5-minute block (ts / 300000) added, subtracted by liq-expire.lua
                 once the block has left the window (so the window is 24 h plus up to 5 minutes)

Returns  {added, duplicates, stale}   stale: older than half the dedup window or the totals window,
                                      or in a block already expired (a replay can no longer be told from a new event there)
Events:  none (the collector publishes nothing; readers poll the stored lists and totals).
]]
local now = tonumber(ARGV[1])
local dedupMs = tonumber(ARGV[2])
local windowMs = tonumber(ARGV[3])
local rawMax = tonumber(ARGV[4])
local symMax = tonumber(ARGV[5])
local keepMs = tonumber(ARGV[6])
local p = ARGV[7]
local tot = KEYS[1]

local expired = tonumber(redis.call('HGET', tot, '_expired') or '')
if not expired then
  expired = math.floor((now - windowMs) / 300000) - 1
  redis.call('HSET', tot, '_expired', expired)
end
local half = math.floor(dedupMs / 2)
local bucket = math.floor(now / half)
local seenNow = p .. 'seen:' .. bucket
local seenBefore = p .. 'seen:' .. (bucket - 1)
local oldest = now - math.min(half, windowMs)

local added, dup, stale = 0, 0, 0
local totals = {}
local window = {}
local bits = {}
local symbols = {}
local raw = {}

local function bump(t, field, by)
  t[field] = (t[field] or 0) + by
end

local batch = ARGV[8]
local pos, len = 1, #batch
local f = {}
while pos <= len do
  local nl = string.find(batch, '\n', pos, true) or (len + 1)
  local at = pos
  for k = 1, 8 do
    local tab = string.find(batch, '\t', at, true)
    f[k] = string.sub(batch, at, tab - 1)
    at = tab + 1
  end
  local encoded = string.sub(batch, at, nl - 1)
  pos = nl + 1
  local id, sym, ex, side = f[1], f[2], f[3], f[4]
  local cents, dollars, ts = tonumber(f[5]), tonumber(f[6]), tonumber(f[7])
  local minute = math.floor(ts / 60000)
  local block = math.floor(ts / 300000)
  if ts < oldest or block <= expired then
    stale = stale + 1
  elseif redis.call('SISMEMBER', seenBefore, id) == 0 and redis.call('SADD', seenNow, id) == 1 then
    added = added + 1
    raw[#raw + 1] = encoded
    local w = window[block]
    if not w then
      w = {}
      window[block] = w
    end
    local cs, ns, cx, nx = 'c:' .. sym .. ':' .. side, 'n:' .. sym .. ':' .. side, 'xc:' .. ex .. ':' .. side, 'xn:' .. ex .. ':' .. side
    bump(totals, cs, cents)
    bump(totals, ns, 1)
    bump(totals, cx, cents)
    bump(totals, nx, 1)
    bump(w, cs, cents)
    bump(w, ns, 1)
    bump(w, cx, cents)
    bump(w, nx, 1)
    if f[8] == '1' then
      local list = symbols[sym]
      if not list then
        list = {}
        symbols[sym] = list
      end
      list[#list + 1] = encoded
      local day = math.floor(minute / 1440)
      local key = p .. 'm:' .. sym .. ':' .. day
      local ops = bits[key]
      if not ops then
        ops = { day = day, n = 0 }
        bits[key] = ops
      end
      ops[ops.n + 1] = (minute - day * 1440) * 2 + (side == 's' and 1 or 0)
      ops[ops.n + 2] = dollars
      ops.n = ops.n + 2
    end
  else
    dup = dup + 1
  end
end

-- pushes a list of values to the head of a list key, in chunks that keep unpack's stack small
local function push(key, values, max)
  for j = 1, #values, 500 do
    redis.call('LPUSH', key, unpack(values, j, math.min(j + 499, #values)))
  end
  redis.call('LTRIM', key, 0, max - 1)
end

if added > 0 then
  redis.call('PEXPIRE', seenNow, dedupMs + half)
  push(p .. 'raw', raw, rawMax)
  for field, by in pairs(totals) do redis.call('HINCRBY', tot, field, by) end
  redis.call('PEXPIRE', tot, windowMs + 3600000)
  for block, fields in pairs(window) do
    local key = p .. 'w:' .. block
    for field, by in pairs(fields) do redis.call('HINCRBY', key, field, by) end
    redis.call('PEXPIRE', key, windowMs + 7200000)
  end
  for sym, list in pairs(symbols) do
    local key = p .. 'ev:' .. sym
    push(key, list, symMax)
    redis.call('PEXPIRE', key, windowMs + 3600000)
  end
  for key, ops in pairs(bits) do
    -- one BITFIELD per 500 increments keeps the argument list short
    local args = { 'OVERFLOW', 'SAT' }
    for j = 1, ops.n, 2 do
      args[#args + 1] = 'INCRBY'
      args[#args + 1] = 'u32'
      args[#args + 1] = '#' .. ops[j]
      args[#args + 1] = ops[j + 1]
      if #args >= 2002 then
        redis.call('BITFIELD', key, unpack(args))
        args = { 'OVERFLOW', 'SAT' }
      end
    end
    if #args > 2 then redis.call('BITFIELD', key, unpack(args)) end
    redis.call('PEXPIREAT', key, (ops.day + 1) * 86400000 + keepMs)
  end
end
return { added, dup, stale }
