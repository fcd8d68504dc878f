import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '@pwa/logging';
import type { RedisSentinelSettings } from './redis-sentinel-settings';
import { watchPrimarySwitches } from './primary-switch-watch';

export interface RedisConnectionOptions {
  /** REDIS_URL. With sentinel, only its username, password, database and scheme (rediss: TLS) are used. */
  url: string;
  /** REDIS_SENTINELS and its companions (redisSentinelOf): connect to the primary they name. */
  sentinel?: RedisSentinelSettings | undefined;
  commandTimeoutMs: number;
  logger: Logger;
}

const reconnectDelayMaxMs = 2_000;
const connectTimeoutMs = 2_000;
/** What closeRedis must close besides the connection: the sentinel watch of a Sentinel connection. */
const companionsToClose = new WeakMap<Redis, () => void>();

/** Every 200 ms more, up to 2 s: the data connection's reconnects, and rounds over all the sentinels. */
function reconnectDelayMs(attempt: number): number {
  return Math.min(attempt * 200, reconnectDelayMaxMs);
}

/**
 * A Redis connection that fails fast instead of queueing: with the offline queue off and no
 * per-command retries, a command while Redis is unreachable rejects at once, and a command Redis
 * does not answer rejects after commandTimeoutMs, so a request never waits on a Redis outage (the
 * gateway then counts its limits in memory; a console answers without a session). Reconnection
 * continues in the background, every 200 ms to 2 s, and each outage is logged once.
 *
 * With sentinel settings the connection asks the sentinels, in turn, which server is the primary,
 * and connects there; after a failover the lost connection reconnects the same way and so reaches
 * the new primary, and a connection still on a primary the sentinels have just replaced is moved
 * at once (primary-switch-watch.ts; docs/redis-topologies.md).
 */
export function connectRedis(options: RedisConnectionOptions): Redis {
  const shared: RedisOptions = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: connectTimeoutMs,
    retryStrategy: reconnectDelayMs,
  };
  const redis = options.sentinel === undefined ? new Redis(options.url, shared) : new Redis(options.url, { ...shared, ...sentinelOptions(options.url, options.sentinel, options.commandTimeoutMs) });
  // ioredis emits an error on every failed reconnect; one line per outage is enough.
  let reportedOutage = false;
  redis.on('error', (error: Error) => {
    if (reportedOutage) return;
    reportedOutage = true;
    options.logger.warn({ err: error, dependency: 'redis' }, 'redis connection error');
  });
  let primary: string | undefined;
  redis.on('ready', () => {
    reportedOutage = false;
    if (options.sentinel === undefined) return;
    // Which server the sentinels named, logged when it changes: a failover shows in the log.
    const reached = `${redis.stream.remoteAddress ?? '?'}:${String(redis.stream.remotePort ?? '?')}`;
    if (reached !== primary) options.logger.info({ dependency: 'redis', primary: reached, masterName: options.sentinel.masterName }, 'redis connected to the primary the sentinels name');
    primary = reached;
  });
  if (options.sentinel !== undefined) {
    companionsToClose.set(redis, watchPrimarySwitches(redis, { sentinel: options.sentinel, tls: usesTls(options.url), connectTimeoutMs, logger: options.logger }));
  }
  return redis;
}

function usesTls(url: string): boolean {
  return url.toLowerCase().startsWith('rediss://');
}

/**
 * ioredis's Sentinel options. rediss:// means TLS to the sentinels and to the data servers alike.
 * The connection also checks the server's role when it connects (a demoted primary is skipped),
 * and a READONLY answer (it reached a primary that has just been demoted and not yet dropped its
 * clients) reconnects it, through the sentinels, to the new one.
 */
function sentinelOptions(url: string, sentinel: RedisSentinelSettings, commandTimeoutMs: number): RedisOptions {
  const tls = usesTls(url);
  return {
    sentinels: sentinel.sentinels.map(({ host, port }) => ({ host, port })),
    name: sentinel.masterName,
    role: 'master',
    ...(sentinel.password === undefined ? {} : { sentinelPassword: sentinel.password }),
    ...(tls ? { enableTLSForSentinelMode: true, sentinelTLS: {} } : {}),
    sentinelCommandTimeout: commandTimeoutMs,
    sentinelRetryStrategy: reconnectDelayMs,
    reconnectOnError: (error: Error) => error.message.startsWith('READONLY'),
  };
}

/** Closes the connection (QUIT, or at once when Redis does not answer) and its sentinel watch. */
export async function closeRedis(redis: Redis): Promise<void> {
  companionsToClose.get(redis)?.();
  companionsToClose.delete(redis);
  if (redis.status === 'end') return;
  await redis.quit().catch(() => redis.disconnect());
}
