--[[
outbox-appended: an include (functions sent ahead of the scripts that append to an account outbox:
position-open, position-close, position-sltp, book-reset, order-place, order-fill, order-close), not a script of its own.

outbox_add appends one entry: the event's fields, then 'req' with the id of the request (or job) that caused
the change when there is one (ARGV of each script; '' for none). The relay carries it into the webhook jobs and
their log lines (docs/OPERATIONS.md, Logs); readers ignore fields they do not know, and an entry without 'req'
(an older release's) is relayed without one.

outbox_appended, called after the script's appends: records the outbox in its slot's index of unrelayed outboxes
(what the relay's periodic pass reads instead of scanning the keyspace; outbox-ack.lua removes it once the outbox
is empty), then wakes the relays.

outbox  the stream appended to (the account outbox, or a replay journal that is never relayed)
index   the outbox's slot's index (set of outbox keys, keys.outboxIndex); the stream itself for a journal
        that is not relayed (nothing is indexed)
req     the request id, or '' (or nil: no such ARGV) for none
]]
local function outbox_add(outbox, req, ...)
  if not req or req == '' then return redis.call('XADD', outbox, '*', ...) end
  local fields = {...}
  fields[#fields + 1] = 'req'
  fields[#fields + 1] = req
  return redis.call('XADD', outbox, '*', unpack(fields))
end

local function outbox_appended(outbox, index)
  if index ~= outbox then redis.call('SADD', index, outbox) end
  redis.call('PUBLISH', 'pd:outbox', outbox)
end
