--[[
idempotency: an include, not a script of its own: the client_order_id record of a create (an open,
a placed order).

earlier_reply(idempotency_key, hash...) answers the reply of a create already made with this
client_order_id, or nil when none was: {2, JSON} when the record it made is still in one of the
hashes, {3, id} when it is no longer kept there.
remember_create(idempotency_key, sent, id, ttl_s) records that the client_order_id made `id`, when
one was sent (sent '1').

idempotency_key  string: the id the client_order_id created (TTL)
hash...          hashes id -> JSON where the record may stand, looked in in order
]]
local function earlier_reply(idempotency_key, ...)
  local prior = redis.call('GET', idempotency_key)
  if not prior then return nil end
  for _, hash in ipairs({...}) do
    local now = redis.call('HGET', hash, prior)
    if now then return {2, now} end
  end
  return {3, prior}
end

local function remember_create(idempotency_key, sent, id, ttl_s)
  if sent == '1' then redis.call('SET', idempotency_key, id, 'EX', ttl_s) end
end
