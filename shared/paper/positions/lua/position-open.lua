--[[
position-open: records a new open position, once per client_order_id, within the book's open cap.
The position was priced in TypeScript; this script only checks and applies.

KEYS[1]  book open positions (hash id -> position JSON)
KEYS[2]  book closed positions (hash id -> position JSON)
KEYS[3]  idempotency key of the client_order_id (string: the position id, TTL); with no
         client_order_id any key of the account (it is not read)
KEYS[4]  account outbox (stream)
KEYS[5]  account paper books (set)
KEYS[6]  trigger index: liquidation levels of the symbol and side (zset)
KEYS[7]  trigger index: stop-loss levels of the symbol and side (zset)
KEYS[8]  trigger index: take-profit levels of the symbol and side (zset)
KEYS[9]  trigger index: trailing positions of the symbol and side, by high-water mark (zset)

ARGV[1]  position id
ARGV[2]  position JSON (status open)
ARGV[3]  open cap of the book
ARGV[4]  1 when a client_order_id was sent, else 0
ARGV[5]  idempotency time to live, seconds
ARGV[6]  trigger member: accountId|book|positionId
ARGV[7]  liquidation price
ARGV[8]  the stop in force (the tighter of stop-loss and trailing stop), or '' for none
ARGV[9]  take-profit price, or '' for none
ARGV[10] book name
ARGV[11] event time, ms
ARGV[12] trailing high-water mark, or '' when the position does not trail

Returns  {1, position JSON}  opened
         {2, position JSON}  idempotent: the position this client_order_id opened, as it stands now
         {3, position id}    idempotent, but a reset archived that position (look it up in the archives)
         {-1, open count}    refused: the book holds the cap of open positions (too_many_open)
Events:  position.opened with the position, on 1 only.

The trigger indexes are cross-account keys under the symbol's hash tag ({SYMBOL}), not the
account's: on one Redis they change atomically with the position; under Redis Cluster they sit in
another slot and these index writes have to leave the script (they are hints: the sweep re-checks
the position itself before it settles anything).
]]
if ARGV[4] == '1' then
  local prior = redis.call('GET', KEYS[3])
  if prior then
    local now = redis.call('HGET', KEYS[1], prior) or redis.call('HGET', KEYS[2], prior)
    if now then return {2, now} end
    return {3, prior}
  end
end

local count = redis.call('HLEN', KEYS[1])
if count >= tonumber(ARGV[3]) then
  return {-1, count}
end

redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if ARGV[4] == '1' then
  redis.call('SET', KEYS[3], ARGV[1], 'EX', ARGV[5])
end
redis.call('SADD', KEYS[5], ARGV[10])
redis.call('ZADD', KEYS[6], ARGV[7], ARGV[6])
if ARGV[8] ~= '' then redis.call('ZADD', KEYS[7], ARGV[8], ARGV[6]) end
if ARGV[9] ~= '' then redis.call('ZADD', KEYS[8], ARGV[9], ARGV[6]) end
if ARGV[12] ~= '' then redis.call('ZADD', KEYS[9], ARGV[12], ARGV[6]) end
redis.call('XADD', KEYS[4], '*', 'event', 'position.opened', 'book', ARGV[10], 'ts', ARGV[11], 'position', ARGV[2])
-- wakes the outbox relay (shared/push); a nudge nobody hears is found by its periodic scan
redis.call('PUBLISH', 'pd:outbox', KEYS[4])
return {1, ARGV[2]}
