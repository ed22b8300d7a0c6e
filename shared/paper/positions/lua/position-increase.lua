--[[
position-increase: adds to an open position (a same-direction order netted into it): the new quantity,
weighted entry, margin, leverage, fees, liquidation price and funding carry were computed in TypeScript
(shared/engine/increase.ts) from the position as read; this script applies them only if the position is
still exactly that (compare-and-set on the SHA-1 of its JSON, which carries its version), once per
client order id.

KEYS[1]  book open positions (hash id -> position JSON)
KEYS[2]  idempotency key of the client order id (string: ARGV[11], TTL); with no client order id any key of
         the account (it is not read)
KEYS[3]  book counters (hash: starting_balance, realized_cents), read with margin_enforced only
KEYS[4]  account outbox (stream)
KEYS[5]  the outbox's index of unrelayed outboxes (set; KEYS[4] itself for a replay journal)

ARGV[1]  position id
ARGV[2]  SHA-1 (hex) of the position JSON the increase was computed from
ARGV[3]  the increased position JSON (version + 1)
ARGV[4]  1 when a client order id was sent, else 0
ARGV[5]  idempotency time to live, seconds
ARGV[6]  book name
ARGV[7]  event time, ms
ARGV[8]  1 when the book's margin is enforced (its profile's margin_enforced), else 0
ARGV[9]  the margin the increase adds, cents
ARGV[10] the id of the request (or job) that caused the change, '' for none: the outbox entry's 'req'
ARGV[11] idempotency value: JSON {added: {price, qty}, position} of this increase ('' when ARGV[4] is 0)

Returns  {1, position JSON}  increased
         {2, idempotency}    idempotent: this client order id already increased a position; what it stored
                             (ARGV[11] of that increase)
         {-1}                stale: the position changed since it was read (read again, recompute)
         {-2}                not open (closed, or no such position in this book)
         {-3, free cents, in use cents, balance cents}
                             refused: margin_enforced and the added margin is above the free margin (as
                             position-open.lua counts it)
Events:  position.updated with the increased position and 'change' 'increase' beside it (readers ignore
         fields they do not know), on 1 only. Moves no counter: margin in use is the open positions' margins,
         and the added fee settles into the close.

Every key is the account's (one hash tag, one cluster slot). The position's entry in the per-symbol
liquidation index is moved around this script (trigger-hints.ts): widened before it, set once it applied.
]]
-- every key touched before any write: on a Redis Cluster, a key of a slot being migrated fails the script at its
-- first access, so a migration refuses the whole change (retryable) instead of stopping it halfway
for i = 1, #KEYS do redis.call('EXISTS', KEYS[i]) end
if ARGV[4] == '1' then
  local prior = redis.call('GET', KEYS[2])
  if prior then return {2, prior} end
end

local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return {-2} end
if redis.sha1hex(current) ~= ARGV[2] then return {-1} end

if ARGV[8] == '1' then
  local stats = redis.call('HMGET', KEYS[3], 'starting_balance', 'realized_cents')
  local balance = math.floor((tonumber(stats[1]) or 10000) * 100 + 0.5) + (tonumber(stats[2]) or 0)
  local in_use = 0
  for _, json in ipairs(redis.call('HVALS', KEYS[1])) do
    in_use = in_use + math.floor(cjson.decode(json).margin * 100 + 0.5)
  end
  if tonumber(ARGV[9]) > balance - in_use then return {-3, balance - in_use, in_use, balance} end
end

redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
if ARGV[4] == '1' then redis.call('SET', KEYS[2], ARGV[11], 'EX', ARGV[5]) end
outbox_add(KEYS[4], ARGV[10], 'event', 'position.updated', 'book', ARGV[6], 'ts', ARGV[7], 'position', ARGV[3], 'change', 'increase')
-- indexes the outbox and wakes the relays (lua/includes/outbox-appended.lua)
outbox_appended(KEYS[4], KEYS[5])
return {1, ARGV[3]}
