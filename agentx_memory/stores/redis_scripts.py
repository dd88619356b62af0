"""Lua scripts shared by the async Redis adapter and its generated sync twin (one copy of each)."""

from __future__ import annotations

__all__ = ["EXTEND", "TOKEN_BUCKET"]

#: A token bucket, atomic on the server and timed by the server's clock (every process agrees): refill by
#: the time since the last call, take one token if there is one, else say how many ms until there is.
#: ARGV: tokens per second, capacity. Returns {admitted (1/0), wait in ms}.
TOKEN_BUCKET = """
local rate, capacity = tonumber(ARGV[1]), tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens, at = tonumber(state[1]), tonumber(state[2])
if tokens == nil or at == nil then tokens, at = capacity, now end
tokens = math.min(capacity, tokens + math.max(0, now - at) * rate / 1000)
local admitted, wait = 0, 0
if tokens >= 1 then
  tokens, admitted = tokens - 1, 1
else
  wait = math.ceil((1 - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity * 1000 / rate) + 1000)
return {admitted, wait}
"""

#: Compare-and-extend, atomic on the server: only the holder's token renews a lock's lease.
EXTEND = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('expire', KEYS[1], ARGV[2])
end
return 0
"""
