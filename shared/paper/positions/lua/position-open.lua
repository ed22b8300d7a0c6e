--[[
position-open: records a new open position, once per client_order_id, within the book's open cap.
The position was priced in TypeScript; this script only checks and applies.

KEYS[1]  book open positions (hash id -> position JSON)
KEYS[2]  book closed positions (hash id -> position JSON)
KEYS[3]  idempotency key of the client_order_id (string: the position id, TTL); with no
         client_order_id any key of the account (it is not read)
KEYS[4]  account outbox (stream)
KEYS[5]  account paper books (set)
KEYS[6]  book counters (hash: starting_balance, realized_cents), read with margin_enforced only
KEYS[7]  the outbox's index of unrelayed outboxes (set; KEYS[4] itself for a replay journal)

ARGV[1]  position id
ARGV[2]  position JSON (status open)
ARGV[3]  open cap of the book
ARGV[4]  1 when a client_order_id was sent, else 0
ARGV[5]  idempotency time to live, seconds
ARGV[6]  book name
ARGV[7]  event time, ms
ARGV[8]  1 when the book's margin is enforced (its profile's margin_enforced), else 0
ARGV[9]  the position's margin, cents
ARGV[10] the id of the request (or job) that caused the change, '' for none: the outbox entry's 'req'
ARGV[11] one-way symbol (an exchange dialect's netting): refuse when the book holds an open position in it; '' none

Returns  {1, position JSON}  opened
         {2, position JSON}  idempotent: the position this client_order_id opened, as it stands now
         {3, position id}    idempotent, but a reset archived that position (look it up in the archives)
         {-1, open count}    refused: the book holds the cap of open positions (too_many_open)
         {-3, position id}   refused: ARGV[11] is set and the book holds this open position in that symbol
         {-2, free cents, in use cents, balance cents}
                             refused: margin_enforced and the margin is above the free margin (balance
                             = starting balance + realized P&L; free = balance - margin of the open positions)
Events:  position.opened with the position, on 1 only.

Every key is the account's (one hash tag, one cluster slot). The position's entries in the
per-symbol trigger indexes are written around this script (trigger-hints.ts): before it, and taken
out again when it stores nothing.
]]
-- every key touched before any write: on a Redis Cluster, a key of a slot being migrated fails the script at its
-- first access, so a migration refuses the whole change (retryable) instead of stopping it halfway
for i = 1, #KEYS do redis.call('EXISTS', KEYS[i]) end
-- a create already made with this client_order_id answers as it did (idempotency.lua, sent ahead of this script)
local earlier = ARGV[4] == '1' and earlier_reply(KEYS[3], KEYS[1], KEYS[2])
if earlier then return earlier end

local count = redis.call('HLEN', KEYS[1])
if count >= tonumber(ARGV[3]) then return {-1, count} end

if ARGV[11] ~= '' or ARGV[8] == '1' then
  local in_use = 0
  for _, json in ipairs(redis.call('HVALS', KEYS[1])) do
    local held = cjson.decode(json)
    if held.symbol == ARGV[11] then return {-3, held.id} end
    in_use = in_use + math.floor(held.margin * 100 + 0.5)
  end
  if ARGV[8] == '1' then
    local stats = redis.call('HMGET', KEYS[6], 'starting_balance', 'realized_cents')
    local balance = math.floor((tonumber(stats[1]) or 10000) * 100 + 0.5) + (tonumber(stats[2]) or 0)
    if tonumber(ARGV[9]) > balance - in_use then return {-2, balance - in_use, in_use, balance} end
  end
end

redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
remember_create(KEYS[3], ARGV[4], ARGV[1], ARGV[5])
redis.call('SADD', KEYS[5], ARGV[6])
outbox_add(KEYS[4], ARGV[10], 'event', 'position.opened', 'book', ARGV[6], 'ts', ARGV[7], 'position', ARGV[2])
-- indexes the outbox and wakes the relays (lua/includes/outbox-appended.lua)
outbox_appended(KEYS[4], KEYS[7])
return {1, ARGV[2]}
