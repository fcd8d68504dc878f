import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A Lua script run by its digest, loaded on first use or after a Redis restart flushed the script
 * cache. Scripts make each read-check-write of a session or a counter one atomic step in Redis
 * (the gateway's token-endpoint lockout, the consoles' sessions and sign-in throttle).
 */
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
