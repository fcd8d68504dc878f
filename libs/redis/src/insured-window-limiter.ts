import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { WindowCount } from './window-count';
import type { RedisFallback } from './redis-fallback';

export interface InsuredWindowLimiterOptions {
  /** Prefix of the Redis keys (and of the in-memory ones); the subject follows after a colon. */
  keyPrefix: string;
  windowSeconds: number;
  fallback: RedisFallback;
}

/**
 * The Redis side keeps the gateway's sliding-window log (decision 0005) as rate-limiter-flexible's
 * custom increment script: one sorted set per subject whose members are the admitted requests,
 * scored by Redis server time, so every replica shares one exact count with no burst at window
 * edges and no replica's clock matters. Refused requests are not recorded. rate-limiter-flexible
 * calls it with KEYS[1] the key, ARGV = points, window seconds, limit, window seconds; it answers
 * { consumed, milliseconds until the oldest admitted request leaves the window }, consumed being
 * the count with this request when admitted and limit + 1 when refused (the library then refuses).
 */
const slidingWindowLua = `
local time = redis.call('TIME')
local nowMs = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local windowMs = tonumber(ARGV[2]) * 1000
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowMs - windowMs)
local used = redis.call('ZCARD', KEYS[1])
local consumed = limit + 1
if used < limit then
  redis.call('ZADD', KEYS[1], nowMs, time[1] .. '.' .. time[2] .. '.' .. used)
  consumed = used + 1
end
local resetAfterMs = windowMs
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if oldest[2] then
  resetAfterMs = tonumber(oldest[2]) + windowMs - nowMs
  redis.call('PEXPIRE', KEYS[1], windowMs)
end
return { consumed, resetAfterMs }
`;

/** Limits differ per partner; one limiter per distinct limit, and a bound on how many are kept. */
const limitersPerLimitMax = 1_000;

/** The per-call options object the insurance limiter receives: it marks the calls it served. */
const servedFromMemory = new WeakSet<object>();

/** The insurance limiter: an ordinary memory limiter that notes which calls fell back to it. */
class ObservedMemoryLimiter extends RateLimiterMemory {
  override consume(key: string | number, pointsToConsume?: number, options: Record<string, unknown> = {}): Promise<RateLimiterRes> {
    servedFromMemory.add(options);
    return super.consume(key, pointsToConsume, options);
  }
}

/**
 * A sliding window per subject counted in Redis (shared by every gateway replica), with
 * rate-limiter-flexible's insurance limiter: when Redis fails or is not connected, a fixed window
 * of the same length is counted in this instance's memory instead, so requests keep being served (each
 * replica then allows the whole limit on its own). Outside fallback every call tries Redis first
 * (at once in memory when the connection is down: rejectIfRedisNotReady); in fallback one call per
 * probe interval tries it and the others count in memory at once, so a Redis that does not answer
 * costs one command timeout per interval, and counting returns to Redis by itself.
 */
export class InsuredWindowLimiter {
  private readonly limiters = new Map<number, { redis: RateLimiterRedis; memory: RateLimiterMemory }>();

  constructor(
    private readonly redis: Redis,
    private readonly options: InsuredWindowLimiterOptions,
  ) {}

  async count(subject: string, limit: number): Promise<WindowCount> {
    const call: Record<string, unknown> = {};
    let result: RateLimiterRes;
    let allowed: boolean;
    const limiters = this.limiterFor(limit);
    // In fallback, most calls skip Redis (see RedisFallback.shouldTryRedis) and count in memory at once.
    const store = this.options.fallback.shouldTryRedis() ? limiters.redis : limiters.memory;
    try {
      result = await store.consume(subject, 1, call);
      allowed = true;
    } catch (refusal) {
      // A RateLimiterRes is a refusal (no points left); anything else means both stores failed.
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      result = refusal;
      allowed = false;
    }
    if (servedFromMemory.has(call)) this.options.fallback.noteRedisFailed();
    else this.options.fallback.noteRedisAnswered();
    return { allowed, limit, used: result.consumedPoints, resetAfterMs: result.msBeforeNext };
  }

  private limiterFor(limit: number): { redis: RateLimiterRedis; memory: RateLimiterMemory } {
    const known = this.limiters.get(limit);
    if (known) return known;
    if (this.limiters.size >= limitersPerLimitMax) {
      const oldest = this.limiters.keys().next();
      if (!oldest.done) this.limiters.delete(oldest.value);
    }
    const shape = { keyPrefix: this.options.keyPrefix, points: limit, duration: this.options.windowSeconds };
    const memory = new ObservedMemoryLimiter(shape);
    const redis = new RateLimiterRedis({
      ...shape,
      storeClient: this.redis,
      rejectIfRedisNotReady: true,
      customIncrTtlLuaScript: slidingWindowLua,
      insuranceLimiter: memory,
    });
    const limiters = { redis, memory };
    this.limiters.set(limit, limiters);
    return limiters;
  }
}
