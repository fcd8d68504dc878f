import { Redis } from 'ioredis';
import type { Logger } from '@pwa/logging';

export interface RedisConnectionOptions {
  url: string;
  commandTimeoutMs: number;
  logger: Logger;
}

/**
 * A Redis connection that fails fast instead of queueing: with the offline queue off and no
 * per-command retries, a command while Redis is unreachable rejects at once, and a command Redis
 * does not answer rejects after commandTimeoutMs, so a request never waits on a Redis outage (the
 * gateway then counts its limits in memory; a console answers without a session). Reconnection
 * continues in the background, every 200 ms to 2 s, and each outage is logged once.
 */
export function connectRedis(options: RedisConnectionOptions): Redis {
  const redis = new Redis(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // ioredis emits an error on every failed reconnect; one line per outage is enough.
  let reportedOutage = false;
  redis.on('error', (error: Error) => {
    if (reportedOutage) return;
    reportedOutage = true;
    options.logger.warn({ err: error, dependency: 'redis' }, 'redis connection error');
  });
  redis.on('ready', () => {
    reportedOutage = false;
  });
  return redis;
}

export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  await redis.quit().catch(() => redis.disconnect());
}
