import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { WindowCount } from '../domain/rate-limit';
import type { RedisFallback } from './redis-fallback';

export interface InsuredWindowLimiterOptions {
  /** Prefix of the Redis keys (and of the in-memory ones); the subject follows after a colon. */
  keyPrefix: string;
  windowSeconds: number;
  fallback: RedisFallback;
}

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
 * A fixed window per subject counted in Redis (shared by every gateway replica), with
 * rate-limiter-flexible's insurance limiter: when Redis fails or is not connected, the same
 * window is counted in this instance's memory instead, so requests keep being served (each
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
    const limiters = { redis: new RateLimiterRedis({ ...shape, storeClient: this.redis, rejectIfRedisNotReady: true, insuranceLimiter: memory }), memory };
    this.limiters.set(limit, limiters);
    return limiters;
  }
}
