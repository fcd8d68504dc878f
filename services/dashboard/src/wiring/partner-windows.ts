import type { Logger } from '@pwa/logging';
import { followRedisConnection, InsuredWindowLimiter, RedisFallback } from '@pwa/redis';
import type { Redis } from 'ioredis';
import type { DashboardConfig } from '../config';

const oneMinuteSeconds = 60;

/**
 * The partners' request windows of the dashboard: the gateway's sliding window (libs/redis), in
 * the dashboard's own keys, shared by every replica; while Redis is away each replica counts in
 * its memory (the limiter's insurance) and says so in the log, as the gateway does.
 */
export function partnerWindowsOf(config: Readonly<Pick<DashboardConfig, 'REDIS_KEY_PREFIX'>>, redis: Redis, logger: Logger): InsuredWindowLimiter {
  const fallback = new RedisFallback({
    nowMs: Date.now,
    onEnter: () => logger.warn({ dependency: 'redis' }, "redis unavailable; partners' dashboard requests are counted in this instance's memory until it answers again"),
    onLeave: (fallbackSeconds) => logger.info({ dependency: 'redis', fallbackSeconds }, "redis answers again; partners' dashboard requests are counted in redis"),
  });
  followRedisConnection(redis, fallback);
  return new InsuredWindowLimiter(redis, { keyPrefix: `${config.REDIS_KEY_PREFIX}dashboard:rate:partner`, windowSeconds: oneMinuteSeconds, fallback });
}
