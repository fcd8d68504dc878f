import { Redis } from 'ioredis';
import type { Logger } from '@pwa/logging';
import type { RedisSentinelSettings } from './redis-sentinel-settings';

export interface PrimarySwitchWatchOptions {
  sentinel: RedisSentinelSettings;
  /** TLS to the sentinels (REDIS_URL is rediss://). */
  tls: boolean;
  connectTimeoutMs: number;
  logger: Logger;
}

const switchChannel = '+switch-master';
/** A sentinel that is away is tried again every second more, up to 10 s. */
const watchReconnectDelayMaxMs = 10_000;

/**
 * Moves the connection to the new primary as soon as a sentinel announces a failover
 * (`+switch-master`), rather than when the old primary drops its clients: in a planned failover
 * the old primary keeps accepting writes until the sentinels demote it, up to 10 s later, and those
 * writes would be lost. One subscriber connection per listed sentinel; any one of them is enough.
 * Only a connection that is ready on another server is moved (a connection that is reconnecting
 * asks the sentinels anyway, and interrupting it mid-connect would end it for good). Answers a
 * function that closes the watch.
 */
export function watchPrimarySwitches(redis: Redis, options: PrimarySwitchWatchOptions): () => void {
  const watchers = options.sentinel.sentinels.map(({ host, port }) => {
    const address = `${host}:${String(port)}`;
    const watcher = new Redis({
      host,
      port,
      ...(options.sentinel.password === undefined ? {} : { password: options.sentinel.password }),
      ...(options.tls ? { tls: {} } : {}),
      connectTimeout: options.connectTimeoutMs,
      enableReadyCheck: false,
      maxRetriesPerRequest: null,
      retryStrategy: (attempt) => Math.min(attempt * 1_000, watchReconnectDelayMaxMs),
    });
    let reportedOutage = false;
    watcher.on('error', (error: Error) => {
      if (reportedOutage) return;
      reportedOutage = true;
      options.logger.warn({ err: error, dependency: 'redis-sentinel', sentinel: address }, 'redis sentinel unreachable; failovers are watched through the other sentinels');
    });
    watcher.on('ready', () => {
      reportedOutage = false;
    });
    watcher.on('message', (channel: string, message: string) => {
      if (channel === switchChannel) followSwitch(redis, message, options);
    });
    watcher.subscribe(switchChannel).catch(() => undefined);
    return watcher;
  });
  return () => {
    for (const watcher of watchers) watcher.disconnect();
  };
}

/** `+switch-master <name> <old ip> <old port> <new ip> <new port>`: reconnect if ready elsewhere. */
function followSwitch(redis: Redis, message: string, options: PrimarySwitchWatchOptions): void {
  const [name, , , newHost, newPort] = message.split(' ');
  if (name !== options.sentinel.masterName || newHost === undefined || newPort === undefined) return;
  if (redis.status !== 'ready') return;
  const current = `${redis.stream.remoteAddress ?? ''}:${String(redis.stream.remotePort ?? '')}`;
  const announced = `${newHost}:${newPort}`;
  if (current === announced) return;
  options.logger.info({ dependency: 'redis', from: current, to: announced, masterName: name }, 'the sentinels switched the redis primary; reconnecting to it');
  // Reconnects through the sentinels (retryStrategy), which now name the new primary.
  redis.disconnect(true);
}
