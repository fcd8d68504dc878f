import { pingDatabase, type Pool } from '@pwa/db';
import type { ReadinessCheck } from '@pwa/http';

/** A console's readiness: its database and the Redis that holds its sessions both answer. */
export function databaseAndRedisReadiness(pool: Pool, redis: { ping(): Promise<unknown> }): ReadinessCheck[] {
  return [
    { name: 'postgres', check: () => pingDatabase(pool) },
    { name: 'redis', check: async () => void (await redis.ping()) },
  ];
}
