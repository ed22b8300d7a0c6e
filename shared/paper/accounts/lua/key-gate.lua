--[[
key-gate: what a keyed request reads before its route, in one round trip: the key's record, its
account's profile and fee venue (an open needs it; read here, it costs no round trip of its own),
and the call counted in the key's rate window (a fixed window that starts with
its first call and expires with it, as rate-limiter-flexible keeps the keyless ones). A key
without a record or account, or a revoked one, counts nothing.

KEYS[1]  acct:{id}:key:<keyId>        hash of the key
KEYS[2]  acct:{id}:profile            hash of the account
KEYS[3]  rl:{id}:key:<keyId>           calls in the key's current window (integer, expires with it)
KEYS[4]  acct:{id}:paper:settings     hash of the account's trading settings (fee_venue)

ARGV[1]  window length, ms
ARGV[2...]  the profile fields to read (email, created, plan, plan_until, plan_source)

Returns  {}                                         no such key or account
         {record, profile, calls, ms left, venue}   record: the key's hash as field, value, ...;
                                                    profile: the fields of ARGV[2...], in order;
                                                    venue: the fee venue, nil when none is set;
                                                    calls -1 and ms left 0 (no venue) for a revoked key
Events: none.
]]
local record = redis.call('HGETALL', KEYS[1])
if #record == 0 then return {} end
local profile = redis.call('HMGET', KEYS[2], unpack(ARGV, 2))
if not profile[1] then return {} end
if redis.call('HEXISTS', KEYS[1], 'revoked') == 1 then return {record, profile, -1, 0} end
-- the call counted in the window (rate-window.lua, sent ahead of this script)
local calls, left = count_in_window(KEYS[3], ARGV[1])
return {record, profile, calls, left, redis.call('HGET', KEYS[4], 'fee_venue')}
