import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { deleteRedisKeys } from '../../../../test/support/cleanup';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { redis: string } };

/** A test file's own corner of the shared Redis. */
export interface RedisTestKeys {
  /** The file's connection; it connects on its first command and is closed after the file's last test. */
  redis: Redis;
  /** `pwa-test:web-auth:<area>:<random UUID>:`, so no other file, and no earlier run, shares a key with this one. */
  keyPrefix: string;
  /** Every key under the prefix, found with SCAN so the shared Redis is never blocked. */
  keysUnderPrefix: () => Promise<string[]>;
}

/**
 * Call once at the top of a test file: registers the afterAll that deletes every key under the
 * file's prefix and closes its connection.
 */
export function redisTestKeys(area: string): RedisTestKeys {
  const redisUrl = serverUrls().redis;
  const keyPrefix = `pwa-test:web-auth:${area}:${randomUUID()}:`;
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });

  afterAll(async () => {
    await deleteRedisKeys(redisUrl, keyPrefix);
    await redis.quit();
  });

  const keysUnderPrefix = async (): Promise<string[]> => {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 500);
      keys.push(...batch);
      cursor = next;
    } while (cursor !== '0');
    return keys;
  };

  return { redis, keyPrefix, keysUnderPrefix };
}
