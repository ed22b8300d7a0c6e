--[[
rate-window: an include, not a script of its own. count_in_window(key, window_ms) counts one call in
a fixed window that starts with its first call and expires with it (as rate-limiter-flexible keeps
its windows) and answers the calls counted so far and the ms left in the window.

key        the window's counter (string: an integer, expires with the window)
window_ms  window length, ms (a string accepted)
]]
local function count_in_window(key, window_ms)
  redis.call('SET', key, 0, 'PX', window_ms, 'NX')
  local calls = redis.call('INCR', key)
  local left = redis.call('PTTL', key)
  -- a counter without an expiry would never reset: give it a window
  if left < 0 then
    redis.call('PEXPIRE', key, window_ms)
    left = tonumber(window_ms)
  end
  return calls, left
end
