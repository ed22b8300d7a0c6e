--[[
position-close: settles a whole position, or the closed share of it (a partial close splits the
position: the remaining part keeps the id and stays open, the closed part is recorded under its
own id). Used by close, close_all (once per position) and the sweep's stops, targets, trailing
stops and liquidations. The settlement was computed in TypeScript from the position as read; this script
applies it only if the position is still exactly that (compare-and-set on the SHA-1 of its JSON,
which carries its version), so a position settles once even when two pods race for it.

KEYS[1]  book open positions (hash id -> position JSON)
KEYS[2]  book closed positions (hash id -> position JSON)
KEYS[3]  book closed positions by close time (zset id by closed_ts)
KEYS[4]  book counters (hash)
KEYS[5]  idempotency key of the client_order_id (string JSON, TTL); with no client_order_id any
         key of the account (it is not read)
KEYS[6]  account outbox (stream)
KEYS[7]  book equity curve (zset minute -> 'minute:cents:closes', the running totals since the
         reset at the end of that minute; shared/paper/analytics)
KEYS[8]  book day bucket of the close's UTC day (hash field -> integer; shared/engine/analytics)
KEYS[9]  the outbox's index of unrelayed outboxes (set; KEYS[6] itself for a replay journal)
KEYS[10] the slot's trade prune index (zset book by oldest close time, keys.tradePruneIndex; KEYS[6]
         itself for a replay journal, whose trades are never pruned)

ARGV[1]  position id
ARGV[2]  SHA-1 (hex) of the position JSON the settlement was computed from
ARGV[3]  closed record JSON (the whole position closed, or the closed part)
ARGV[4]  closed record id (the position id for a whole close)
ARGV[5]  remaining position JSON for a partial close, '' for a whole close
ARGV[6]  realized P&L of the closed record, integer cents
ARGV[7]  close time, ms
ARGV[8]  1 when a client_order_id was sent, else 0
ARGV[9]  idempotency time to live, seconds
ARGV[10] idempotency value: JSON {closed_id, remaining_id} ('' when ARGV[8] is 0: not stored)
ARGV[11] event: position.closed or position.liquidated
ARGV[12] book name
ARGV[13] 1 when this is a liquidation, else 0
ARGV[14] 1 when the close counts in the read models (equity curve, report), else 0: a replay row
         (src replay) never counts, so its caller passes 0 (closeCountsInAnalytics)
ARGV[15] minute of the close time, ms
ARGV[16] how far back the curve keeps entries, ms (the newest older one stays: it holds the totals)
ARGV[17] time to live of the day bucket, seconds
ARGV[18] the id of the request (or job) that caused the change, '' for none: the outbox entry's 'req'
ARGV[19..] the day bucket's increments: field, integer, field, integer ... (closeIncrements)

Returns  {1}                 settled
         {2, idempotency}    idempotent: this client_order_id already closed; its stored result
         {-1}                stale: the position changed since it was read (read again, recompute)
         {-2}                already closed
         {-3}                no such position in this book
Events:  one entry on 1 only: the event of ARGV[11] with the closed record, and for a partial
         close the remaining position under 'remaining'.

Every key is the account's (one hash tag, one cluster slot). The position's entries in the
per-symbol trigger indexes are taken out after a whole close (trigger-hints.ts); one left behind by
a crash is dropped by the sweep, which re-checks the position itself before it settles anything.
]]
-- every key touched before any write: on a Redis Cluster, a key of a slot being migrated fails the script at its
-- first access, so a migration refuses the whole change (retryable) instead of stopping it halfway
for i = 1, #KEYS do redis.call('EXISTS', KEYS[i]) end
if ARGV[8] == '1' then
  local prior = redis.call('GET', KEYS[5])
  if prior then return {2, prior} end
end

local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then
  if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return {-2} end
  return {-3}
end
if redis.sha1hex(current) ~= ARGV[2] then return {-1} end

local cents = tonumber(ARGV[6])
if ARGV[5] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[5])
end
redis.call('HSET', KEYS[2], ARGV[4], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[7], ARGV[4])
-- the book's oldest close time in the prune index: LT keeps an older one (trades-prune.lua moves it on)
if KEYS[10] ~= KEYS[6] then redis.call('ZADD', KEYS[10], 'LT', ARGV[7], KEYS[3]) end

local outcome = cents > 0 and 'wins' or 'losses'
redis.call('HINCRBY', KEYS[4], 'realized_cents', cents)
redis.call('HINCRBY', KEYS[4], 'life_realized_cents', cents)
redis.call('HINCRBY', KEYS[4], 'closed', 1)
redis.call('HINCRBY', KEYS[4], 'life_closed', 1)
redis.call('HINCRBY', KEYS[4], outcome, 1)
redis.call('HINCRBY', KEYS[4], 'life_' .. outcome, 1)
if ARGV[13] == '1' then redis.call('HINCRBY', KEYS[4], 'liquidations', 1) end
local best = redis.call('HGET', KEYS[4], 'best_cents')
if not best or cents > tonumber(best) then redis.call('HSET', KEYS[4], 'best_cents', cents) end

if ARGV[14] == '1' then
  -- the curve: the entry of the close's minute and every later one (a close settled late) move by it
  local minute = tonumber(ARGV[15])
  local prior = redis.call('ZREVRANGEBYSCORE', KEYS[7], minute, '-inf', 'WITHSCORES', 'LIMIT', 0, 1)
  local total, closes = 0, 0
  if prior[1] then
    local _, c, n = string.match(prior[1], '^(%d+):(-?%d+):(%d+)$')
    total, closes = tonumber(c), tonumber(n)
    if tonumber(prior[2]) == minute then redis.call('ZREM', KEYS[7], prior[1]) end
  end
  redis.call('ZADD', KEYS[7], minute, minute .. ':' .. (total + cents) .. ':' .. (closes + 1))
  local later = redis.call('ZRANGEBYSCORE', KEYS[7], '(' .. minute, '+inf', 'WITHSCORES')
  for i = 1, #later, 2 do
    local m, c, n = string.match(later[i], '^(%d+):(-?%d+):(%d+)$')
    redis.call('ZREM', KEYS[7], later[i])
    redis.call('ZADD', KEYS[7], later[i + 1], m .. ':' .. (tonumber(c) + cents) .. ':' .. (tonumber(n) + 1))
  end
  local cutoff = minute - tonumber(ARGV[16])
  local kept = redis.call('ZREVRANGEBYSCORE', KEYS[7], cutoff, '-inf', 'WITHSCORES', 'LIMIT', 0, 1)
  if kept[1] then redis.call('ZREMRANGEBYSCORE', KEYS[7], '-inf', '(' .. kept[2]) end

  for i = 19, #ARGV, 2 do redis.call('HINCRBY', KEYS[8], ARGV[i], ARGV[i + 1]) end
  local best = redis.call('HGET', KEYS[8], 'best')
  if not best or cents > tonumber(best) then redis.call('HSET', KEYS[8], 'best', cents) end
  local worst = redis.call('HGET', KEYS[8], 'worst')
  if not worst or cents < tonumber(worst) then redis.call('HSET', KEYS[8], 'worst', cents) end
  redis.call('EXPIRE', KEYS[8], ARGV[17])
end

if ARGV[8] == '1' then
  redis.call('SET', KEYS[5], ARGV[10], 'EX', ARGV[9])
end
if ARGV[5] == '' then
  outbox_add(KEYS[6], ARGV[18], 'event', ARGV[11], 'book', ARGV[12], 'ts', ARGV[7], 'position', ARGV[3])
else
  outbox_add(KEYS[6], ARGV[18], 'event', ARGV[11], 'book', ARGV[12], 'ts', ARGV[7], 'position', ARGV[3], 'remaining', ARGV[5])
end
-- indexes the outbox and wakes the relays (lua/includes/outbox-appended.lua)
outbox_appended(KEYS[6], KEYS[9])
return {1}
