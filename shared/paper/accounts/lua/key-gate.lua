--[[
key-gate: what a keyed request reads before its route, in one round trip: the key's record, its
account's profile and fee venue (an open needs it; read here, it costs no round trip of its own),
whether the key runs a replay and its book's simulation profile (every trading call asks both),
and the call counted in the key's rate window (a fixed window that starts with its first call and
expires with it, as rate-limiter-flexible keeps the keyless ones). A key without a record or
account, or a revoked one, counts nothing.

KEYS[1]  acct:{id}:key:<keyId>        hash of the key
KEYS[2]  acct:{id}:profile            hash of the account
KEYS[3]  rl:{id}:key:<keyId>           calls in the key's current window (integer, expires with it)
KEYS[4]  acct:{id}:paper:settings     hash of the trading settings (fee_venue, fee_venue:<book>)
KEYS[5]  acct:{id}:replay:<keyId>     hash of the key's replay, when it runs one
KEYS[6]  acct:{id}:b:<book>:sim       hash of the simulation profile of the book the caller expects the key to trade

ARGV[1]  window length, ms
ARGV[2]  the book of KEYS[6]
ARGV[3...]  the profile fields to read (email, created, plan, plan_until, plan_source)

Returns  {}                                         no such key or account
         {record, profile, -1, 0}                   a revoked key
         {record, profile, calls, ms left, venue, replay, sim read, sim}
                                                    record: the key's hash as field, value, ...;
                                                    profile: the fields of ARGV[3...], in order;
                                                    venue: the fee venue the key's opens use (its book's own
                                                    for a bound key that set one, else the account's), nil for none;
                                                    replay: 1 when the key has a replay, else 0;
                                                    sim read: 1 when the key trades ARGV[2]'s book (sim is
                                                    then its profile JSON, nil when none is saved), else 0
Events: none.
]]
local record = redis.call('HGETALL', KEYS[1])
if #record == 0 then return {} end
local profile = redis.call('HMGET', KEYS[2], unpack(ARGV, 3))
if not profile[1] then return {} end
if redis.call('HEXISTS', KEYS[1], 'revoked') == 1 then return {record, profile, -1, 0} end
-- the call counted in the window (rate-window.lua, sent ahead of this script)
local calls, left = count_in_window(KEYS[3], ARGV[1])
local book = redis.call('HGET', KEYS[1], 'book')
-- a key bound to no book trades the main one (MAIN_BOOK, account-rules.ts)
if not book or book == '' then book = 'main' end
local simRead, sim = 0, false
if book == ARGV[2] then
  simRead = 1
  sim = redis.call('HGET', KEYS[6], 'profile')
end
-- a book's own venue (fee-settings.ts; '' for none) before the account's
local venue = false
if book ~= 'main' then venue = redis.call('HGET', KEYS[4], 'fee_venue:' .. book) end
if not venue then venue = redis.call('HGET', KEYS[4], 'fee_venue') end
if venue == '' then venue = false end
return {record, profile, calls, left, venue, redis.call('EXISTS', KEYS[5]), simRead, sim}
