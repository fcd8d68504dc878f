import type { Redis } from 'ioredis';
import type { WindowCount } from '../domain/rate-limit';
import { RedisScript } from './redis-connection';

/**
 * A sliding-window log in one sorted set per subject: members are the admitted requests, scored
 * by Redis server time in milliseconds. The script runs atomically on the Redis server and uses
 * its clock (TIME), so every gateway replica shares one exact count and no replica's clock skew
 * matters. Refused requests are not recorded, so a client that backs off recovers on schedule.
 *
 * KEYS[1] the window key; ARGV[1] limit; ARGV[2] window length in ms; ARGV[3] a unique request id.
 * Returns { admitted (0|1), used, milliseconds until the oldest admitted request leaves the window }.
 */
const slidingWindowLua = `
local time = redis.call('TIME')
local nowMs = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local limit = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowMs - windowMs)
local used = redis.call('ZCARD', KEYS[1])
local admitted = 0
if used < limit then
  redis.call('ZADD', KEYS[1], nowMs, time[1] .. '.' .. time[2] .. ':' .. ARGV[3])
  used = used + 1
  admitted = 1
end
local resetAfterMs = windowMs
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if oldest[2] then
  resetAfterMs = tonumber(oldest[2]) + windowMs - nowMs
  redis.call('PEXPIRE', KEYS[1], windowMs)
end
return { admitted, used, resetAfterMs }
`;

const slidingWindowScript = new RedisScript(slidingWindowLua);

export interface SlidingWindowRequest {
  key: string;
  limit: number;
  windowMs: number;
  requestId: string;
}

export async function countInSlidingWindow(redis: Redis, request: SlidingWindowRequest): Promise<WindowCount> {
  const reply = await slidingWindowScript.run(redis, [request.key], [request.limit, request.windowMs, request.requestId]);
  if (!Array.isArray(reply) || reply.length !== 3) throw new Error('unexpected reply from the sliding-window script');
  const [admitted, used, resetAfterMs] = reply.map(Number) as [number, number, number];
  return { allowed: admitted === 1, limit: request.limit, used, resetAfterMs };
}
