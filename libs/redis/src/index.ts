/**
 * @pwa/redis: what every user of Redis for counters and sessions shares (the gateway's limits, the
 * consoles' sessions and sign-in throttle): Lua scripts run by digest, and the key a client
 * address counts under.
 */
export { RedisScript } from './redis-script';
export { addressBucketOf } from './address-bucket';
export { connectRedis, closeRedis, type RedisConnectionOptions } from './redis-connection';
