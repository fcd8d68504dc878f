/**
 * @pwa/redis: what every user of Redis for counters and sessions shares (the gateway's limits, the
 * consoles' sessions and sign-in throttle): the connection (one Redis server, or the primary that
 * Sentinel names), Lua scripts run by digest, the key a client address counts under, and the
 * per-partner sliding window the gateway and the dashboard count requests in (with its in-memory
 * insurance while Redis is away, and the rate-limit headers of a count).
 */
export { RedisScript } from './redis-script';
export { addressBucketOf } from './address-bucket';
export { connectRedis, closeRedis, type RedisConnectionOptions } from './redis-connection';
export { isRedisUnavailable } from './redis-unavailable';
export {
  parseSentinelAddresses,
  redisSentinelConfigFields,
  redisSentinelOf,
  redisSentinelProblems,
  type RedisAddress,
  type RedisSentinelConfig,
  type RedisSentinelSettings,
} from './redis-sentinel-settings';
export { InsuredWindowLimiter, type InsuredWindowLimiterOptions } from './insured-window-limiter';
export { RedisFallback, followRedisConnection, type RedisFallbackOptions } from './redis-fallback';
export { rateLimitHeaders, type WindowCount } from './window-count';
