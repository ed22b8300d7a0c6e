--[[
arena-close: adds closes to their books' tallies of one arena season, once each. Called by the
outbox relay (shared/arena/arena-recorder.ts) with the position.closed and position.liquidated
entries of one account it relays, in outbox order. The relay delivers at least once (a relay that
dies before it removes the entries leaves them to the next), so each tally keeps the id of the last
outbox entry it counted: an account's outbox ids only grow, and a book's entries reach it in that
order, so an entry at or below it was counted already and is skipped. One close is one entry
(position-close.lua settles a position once, whoever races it), so this counts each close once.

KEYS[1]  the season's tallies (hash accountId|book -> "last entry id,closes,wins,pnl cents,
         roe sum (hundredths of a percent),liquidations,slippage closes,tiered closes")
KEYS[2]  the season's ranking (zset accountId|book by realized P&L in cents): the books with at
         least ARGV[2] closes, so the rollup reads the top of it, not every book
ARGV[1]  when the season's keys expire, ms (PEXPIREAT)
ARGV[2]  closes a book needs to be ranked
ARGV[3..] one group per book, its closes in outbox order: member (accountId|book), the number of
         closes n, then n times: outbox entry id, realized P&L in cents, ROE in hundredths of a
         percent, 1 if liquidated, 1 if slippage applied, 1 if tiered margin applied (else 0)

Returns  the number of closes counted (those already counted are not)
Events:  none.

Cross-account keys, outside every account's slot: both carry the season's hash tag ({s<season>}),
so the script stays in one slot under Redis Cluster.
]]
-- an outbox entry id "<ms>-<seq>" as two numbers
local function parseId(id)
  local ms, seq = string.match(id, '^(%d+)-(%d+)$')
  return tonumber(ms), tonumber(seq)
end

local counted = 0
local minCloses = tonumber(ARGV[2])
local i = 3
while i <= #ARGV do
  local member, n = ARGV[i], tonumber(ARGV[i + 1])
  -- last id, closes, wins, pnl, roe, liquidations, slippage, tiered
  local t = {'0-0', 0, 0, 0, 0, 0, 0, 0}
  local prior = redis.call('HGET', KEYS[1], member)
  if prior then
    local k = 1
    for part in string.gmatch(prior, '[^,]+') do
      t[k] = k == 1 and part or tonumber(part)
      k = k + 1
    end
  end
  local lastMs, lastSeq = parseId(t[1])
  local before = t[2]
  for c = i + 2, i + 1 + 6 * n, 6 do
    local ms, seq = parseId(ARGV[c])
    if ms > lastMs or (ms == lastMs and seq > lastSeq) then
      lastMs, lastSeq, t[1] = ms, seq, ARGV[c]
      local cents = tonumber(ARGV[c + 1])
      t[2] = t[2] + 1
      if cents > 0 then t[3] = t[3] + 1 end
      t[4] = t[4] + cents
      t[5] = t[5] + tonumber(ARGV[c + 2])
      t[6] = t[6] + tonumber(ARGV[c + 3])
      t[7] = t[7] + tonumber(ARGV[c + 4])
      t[8] = t[8] + tonumber(ARGV[c + 5])
    end
  end
  if t[2] > before then
    redis.call('HSET', KEYS[1], member, table.concat(t, ','))
    if t[2] >= minCloses then redis.call('ZADD', KEYS[2], t[4], member) end
    counted = counted + t[2] - before
  end
  i = i + 2 + 6 * n
end
if counted > 0 then
  redis.call('PEXPIREAT', KEYS[1], ARGV[1])
  redis.call('PEXPIREAT', KEYS[2], ARGV[1])
end
return counted
