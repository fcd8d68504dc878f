import { createHash } from 'node:crypto';
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
 * does not answer rejects after commandTimeoutMs. The limits then count in memory (see
 * redis-ports.ts) rather than letting the partner's request wait. Reconnection continues in the
 * background, every 200 ms to 2 s.
 */
export function connectRedis(options: RedisConnectionOptions): Redis {
  const redis = new Redis(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // ioredis emits an error on every failed reconnect; one line per outage is enough (the
  // fallback logs entering and leaving; this line keeps the connection's own error).
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

/** Runs a Lua script by its digest, loading it on first use (or after a Redis restart flushed the cache). */
export class RedisScript {
  private readonly digest: string;

  constructor(private readonly lua: string) {
    this.digest = createHash('sha1').update(lua).digest('hex');
  }

  async run(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.digest, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(this.lua, keys.length, ...keys, ...args);
    }
  }
}
