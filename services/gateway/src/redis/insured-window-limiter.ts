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
 * replica then allows the whole limit on its own). Every call tries Redis first unless the
 * connection is down (rejectIfRedisNotReady), so counting returns to Redis by itself.
 */
export class InsuredWindowLimiter {
  private readonly limiters = new Map<number, RateLimiterRedis>();

  constructor(
    private readonly redis: Redis,
    private readonly options: InsuredWindowLimiterOptions,
  ) {}

  async count(subject: string, limit: number): Promise<WindowCount> {
    const call: Record<string, unknown> = {};
    let result: RateLimiterRes;
    let allowed: boolean;
    try {
      result = await this.limiterFor(limit).consume(subject, 1, call);
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

  private limiterFor(limit: number): RateLimiterRedis {
    const known = this.limiters.get(limit);
    if (known) return known;
    if (this.limiters.size >= limitersPerLimitMax) {
      const oldest = this.limiters.keys().next();
      if (!oldest.done) this.limiters.delete(oldest.value);
    }
    const shape = { keyPrefix: this.options.keyPrefix, points: limit, duration: this.options.windowSeconds };
    const limiter = new RateLimiterRedis({
      ...shape,
      storeClient: this.redis,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new ObservedMemoryLimiter(shape),
    });
    this.limiters.set(limit, limiter);
    return limiter;
  }
}
