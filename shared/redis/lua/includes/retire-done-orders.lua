--[[
retire-done-orders: an include (a function sent ahead of the scripts that add a done order to a book:
order-close, order-fill, book-reset), not a script of its own. The oldest done orders beyond the kept ones leave the
book; each leaves a tombstone (its final status, by done time) so cancel_order and modify_order still
answer 409 already_done. Tombstones older than tomb_ms, and the oldest beyond tomb_max, are dropped
lazily, at most 100 a call. Every key is the calling script's account's (one hash tag).

orders         book orders (hash order id -> order JSON)
done           book done orders (zset order id by done ms)
tombstones     book order tombstones (zset order id by done ms)
tomb_statuses  book order tombstone statuses (hash order id -> final status)
keep, now, tomb_ms, tomb_max  numbers (strings accepted)
]]
local function retire_done_orders(orders, done, tombstones, tomb_statuses, keep, now, tomb_ms, tomb_max)
  local extra = redis.call('ZCARD', done) - tonumber(keep)
  if extra <= 0 then return end
  local dropped = redis.call('ZRANGE', done, 0, extra - 1, 'WITHSCORES')
  local ids = {}
  for i = 1, #dropped, 2 do
    local id = dropped[i]
    local raw = redis.call('HGET', orders, id)
    if raw then
      redis.call('HSET', tomb_statuses, id, cjson.decode(raw).status)
      redis.call('ZADD', tombstones, dropped[i + 1], id)
    end
    ids[#ids + 1] = id
  end
  redis.call('HDEL', orders, unpack(ids))
  redis.call('ZREMRANGEBYRANK', done, 0, extra - 1)
  local old = redis.call('ZRANGEBYSCORE', tombstones, '-inf', tonumber(now) - tonumber(tomb_ms), 'LIMIT', 0, 100)
  local over = redis.call('ZCARD', tombstones) - #old - tonumber(tomb_max)
  if over > 0 then
    for _, id in ipairs(redis.call('ZRANGE', tombstones, #old, #old + math.min(over, 100) - 1)) do old[#old + 1] = id end
  end
  if #old > 0 then
    redis.call('HDEL', tomb_statuses, unpack(old))
    redis.call('ZREM', tombstones, unpack(old))
  end
end
