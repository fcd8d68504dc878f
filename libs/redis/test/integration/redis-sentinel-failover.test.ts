/**
 * The gateway's per-partner rate limit across a Redis Sentinel failover (docs/redis-topologies.md),
 * against real servers started here on 127.0.0.1 (test/support/sentinel-topology.ts): the project's
 * own connection (connectRedis with the Sentinel settings as a service parses them), the gateway's
 * limiter (InsuredWindowLimiter with its RedisFallback, wired as the gateway wires it), and traffic
 * throughout. What the limiter documents is what is checked: while no primary is reachable each
 * instance counts in its memory (and still refuses above the limit); once the sentinels have
 * promoted the replica the connection reaches it by itself and counting is back in Redis, where the
 * windows replicated before the failover are still there.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { fields, loadConfig, z } from '@pwa/config';
import { closeRedis, connectRedis } from '../../src/redis-connection';
import { followRedisConnection, RedisFallback } from '../../src/redis-fallback';
import { InsuredWindowLimiter } from '../../src/insured-window-limiter';
import { redisSentinelConfigFields, redisSentinelOf } from '../../src/redis-sentinel-settings';
import { isRedisUnavailable } from '../../src/redis-unavailable';
import type { WindowCount } from '../../src/window-count';
import { createCapturedLogger, type CapturedLogger } from '../../../../test/support/captured-logger';
import { sleep } from '../../../../test/support/private-server-ports';
import { startSentinelTopology, type SentinelTopology } from '../support/sentinel-topology';

const masterName = 'pwa';
const limitPerWindow = 5;
/** The production window: every count of one test stays in it, so nothing leaves it by time. */
const windowSeconds = 60;
/** Bound of a failover, from the fault to the client counting in Redis on the new primary. */
const failoverDeadlineMs = 30_000;
/** Bound of the background traffic, in case a test stops before stopping it. */
const trafficDeadlineMs = 50_000;
const trafficIntervalMs = 10;

const topologies: SentinelTopology[] = [];
const connections: Redis[] = [];
/** Traffic still running when a test failed before stopping it. */
const trafficStops: (() => Promise<unknown>)[] = [];
let closing = false;

afterAll(async () => {
  await Promise.all(trafficStops.map((stop) => stop()));
  closing = true;
  await Promise.all(connections.map((redis) => closeRedis(redis)));
  await Promise.all(topologies.map((topology) => topology.dispose()));
});

interface Counting {
  redis: Redis;
  limiter: InsuredWindowLimiter;
  fallback: RedisFallback;
  fallbackEvents: string[];
  keyPrefix: string;
  logs: CapturedLogger;
  /** Times the connection ended on its own (it must reconnect instead). */
  endsWithoutClose: { count: number };
}

/** The connection and the gateway's limiter, configured from environment variables as a service is. */
async function countThroughSentinels(topology: SentinelTopology): Promise<Counting> {
  const config = loadConfig(z.object({ REDIS_URL: fields.redisUrl, ...redisSentinelConfigFields }), {
    // With Sentinel, REDIS_URL's host is not used: the sentinels name the primary.
    REDIS_URL: `redis://${masterName}/0`,
    REDIS_SENTINELS: topology.sentinelAddresses.map(({ host, port }) => `${host}:${String(port)}`).join(','),
    REDIS_SENTINEL_MASTER_NAME: masterName,
  });
  const logs = createCapturedLogger('redis-sentinel-test');
  const redis = connectRedis({ url: config.REDIS_URL, sentinel: redisSentinelOf(config), commandTimeoutMs: 500, logger: logs.logger });
  connections.push(redis);
  const endsWithoutClose = { count: 0 };
  redis.on('end', () => {
    if (!closing) endsWithoutClose.count += 1;
  });
  const fallbackEvents: string[] = [];
  const fallback = new RedisFallback({ nowMs: Date.now, onEnter: () => fallbackEvents.push('enter'), onLeave: () => fallbackEvents.push('leave') });
  followRedisConnection(redis, fallback);
  const keyPrefix = `pwa-test:sentinel:${randomUUID()}:gateway:rate:partner`;
  const limiter = new InsuredWindowLimiter(redis, { keyPrefix, windowSeconds, fallback });
  await eventually('the connection is ready', () => redis.status === 'ready', 10_000, topology);
  return { redis, limiter, fallback, fallbackEvents, keyPrefix, logs, endsWithoutClose };
}

interface TrafficSummary {
  calls: number;
  admitted: number;
  /** Calls made while the limiter counted in memory. */
  inMemory: number;
  errors: unknown[];
}

/** A partner sending a request every 10 ms (far below its limit) until stopped or 50 s have passed. */
function startTraffic(counting: Counting, partnerId: string): { stop: () => Promise<TrafficSummary> } {
  const summary: TrafficSummary = { calls: 0, admitted: 0, inMemory: 0, errors: [] };
  const deadline = Date.now() + trafficDeadlineMs;
  let stopped = false;
  const run = async (): Promise<void> => {
    while (!stopped && Date.now() < deadline) {
      try {
        const inMemory = counting.fallback.isActive();
        const count = await counting.limiter.count(partnerId, 1_000_000);
        summary.calls += 1;
        if (count.allowed) summary.admitted += 1;
        if (inMemory) summary.inMemory += 1;
      } catch (error) {
        summary.errors.push(error);
      }
      await sleep(trafficIntervalMs);
    }
  };
  const running = run();
  const stop = async (): Promise<TrafficSummary> => {
    stopped = true;
    await running;
    return summary;
  };
  trafficStops.push(stop);
  return { stop };
}

/** `calls` requests of one partner in a row. */
async function requests(counting: Counting, partnerId: string, calls: number): Promise<WindowCount[]> {
  const counts: WindowCount[] = [];
  for (let call = 0; call < calls; call += 1) counts.push(await counting.limiter.count(partnerId, limitPerWindow));
  return counts;
}

/** How many requests of a partner's window the server on that port holds (its sorted set's size). */
function windowSizeOn(topology: SentinelTopology, port: number, counting: Counting, partnerId: string): Promise<number> {
  return topology.query(port, (client) => client.zcard(`${counting.keyPrefix}:${partnerId}`));
}

async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number, topology: SentinelTopology, state: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(`${what}: not within ${String(timeoutMs)} ms ${state()}\n${topology.output()}`);
}

/** Collects unhandled promise rejections while the body runs. */
async function watchingUnhandledRejections<T>(body: (rejections: unknown[]) => Promise<T>): Promise<T> {
  const rejections: unknown[] = [];
  const note = (reason: unknown): void => void rejections.push(reason);
  process.on('unhandledRejection', note);
  try {
    return await body(rejections);
  } finally {
    process.off('unhandledRejection', note);
  }
}

const admittedThenRefused = [true, true, true, true, true, false, false];

describe('the rate limit across a Redis Sentinel failover', () => {
  test('when the primary is killed, then requests keep being counted (in memory until the sentinels promote the replica, then in Redis on it) and refused above the limit, with no error', async () => {
    const topology = await startSentinelTopology({ masterName, downAfterMs: 1_000, failoverTimeoutMs: 3_000 });
    topologies.push(topology);
    const counting = await countThroughSentinels(topology);

    await watchingUnhandledRejections(async (rejections) => {
      const traffic = startTraffic(counting, 'partner-steady');
      const before = await requests(counting, 'partner-before', 7);
      // The window has reached the replica before the fault (replication is asynchronous).
      const replicasAcknowledged = await topology.query(topology.primary.port, (client) => client.call('WAIT', '1', '2000'));

      await topology.primary.stop('SIGKILL');
      await eventually('the limiter counts in memory', () => counting.fallback.isActive(), 5_000, topology);
      const during = await requests(counting, 'partner-during', 7);
      // A console's session read meanwhile fails as "Redis unavailable" (503), not as a bug (500).
      const sessionReadDuring: unknown = await counting.redis.hgetall(`${counting.keyPrefix}:session`).catch((error: unknown) => error);
      const failoverStartedMs = Date.now();
      await eventually('the connection reaches the promoted replica', () => counting.redis.status === 'ready' && counting.redis.stream.remotePort === topology.replica.port, failoverDeadlineMs, topology, () => `connection ${counting.redis.status}, ended on its own ${String(counting.endsWithoutClose.count)} times`);
      await eventually('the limiter counts in Redis again', () => !counting.fallback.isActive(), 5_000, topology);
      const failoverMs = Date.now() - failoverStartedMs;
      const after = await requests(counting, 'partner-after', 7);
      const beforeAgain = await requests(counting, 'partner-before', 1);
      const summary = await traffic.stop();

      expect(replicasAcknowledged).toBe(1);
      expect(before.map((count) => count.allowed)).toEqual(admittedThenRefused);
      // While no primary answers, this instance refuses above the limit from its own count.
      expect(during.map((count) => count.allowed)).toEqual(admittedThenRefused);
      expect(isRedisUnavailable(sessionReadDuring)).toBe(true);
      // After the failover the count is Redis's again: on the new primary, which the sentinels name.
      expect(after.map((count) => count.allowed)).toEqual(admittedThenRefused);
      expect(await windowSizeOn(topology, topology.replica.port, counting, 'partner-after')).toBe(limitPerWindow);
      // The sentinel the client asked named the replica; the others learn the new configuration from it a moment later.
      let named: number | undefined;
      await eventually('the sentinels name the promoted replica', async () => (named = await topology.primaryPortNamedBySentinels()) === topology.replica.port, 10_000, topology, () => `the first answering sentinel names port ${String(named)}`);
      expect((await counting.redis.role())[0]).toBe('master');
      // The window counted before the failover was replicated, so it is still full: no free requests.
      expect(beforeAgain.map((count) => count.allowed)).toEqual([false]);
      expect(await windowSizeOn(topology, topology.replica.port, counting, 'partner-before')).toBe(limitPerWindow);
      // The memory count of the outage is not carried into Redis.
      expect(await windowSizeOn(topology, topology.replica.port, counting, 'partner-during')).toBe(0);
      expect(summary.errors).toEqual([]);
      expect(rejections).toEqual([]);
      expect(summary.admitted).toBe(summary.calls);
      expect(summary.inMemory).toBeGreaterThan(0);
      expect(summary.calls - summary.inMemory).toBeGreaterThan(0);
      expect(counting.fallbackEvents).toEqual(['enter', 'leave']);
      expect(counting.endsWithoutClose.count).toBe(0);
      expect(failoverMs).toBeLessThan(failoverDeadlineMs);
      const logged = counting.logs.text();
      expect(logged).toContain(`"primary":"127.0.0.1:${String(topology.primary.port)}"`);
      expect(logged).toContain(`"primary":"127.0.0.1:${String(topology.replica.port)}"`);
      expect(logged.match(/redis connection error/g)).toHaveLength(1);
    });
  });

  test('when the operator fails over on purpose (SENTINEL FAILOVER), then the connection leaves the demoted primary for the new one and the limit keeps counting in Redis, with no error', async () => {
    const topology = await startSentinelTopology({ masterName, downAfterMs: 1_000, failoverTimeoutMs: 3_000 });
    topologies.push(topology);
    const counting = await countThroughSentinels(topology);

    await watchingUnhandledRejections(async (rejections) => {
      const traffic = startTraffic(counting, 'partner-steady');
      const before = await requests(counting, 'partner-before', 7);
      const replicasAcknowledged = await topology.query(topology.primary.port, (client) => client.call('WAIT', '1', '2000'));

      const firstSentinel = topology.sentinels[0];
      if (firstSentinel === undefined) throw new Error('the topology has no sentinel');
      await topology.query(firstSentinel.port, (client) => client.call('SENTINEL', 'FAILOVER', masterName));
      await eventually('the connection reaches the promoted replica', () => counting.redis.status === 'ready' && counting.redis.stream.remotePort === topology.replica.port, failoverDeadlineMs, topology, () => `connection ${counting.redis.status}, ended on its own ${String(counting.endsWithoutClose.count)} times`);
      await eventually('the limiter counts in Redis', () => !counting.fallback.isActive(), 5_000, topology);
      const after = await requests(counting, 'partner-after', 7);
      const beforeAgain = await requests(counting, 'partner-before', 1);
      const summary = await traffic.stop();

      expect(replicasAcknowledged).toBe(1);
      expect(before.map((count) => count.allowed)).toEqual(admittedThenRefused);
      expect(after.map((count) => count.allowed)).toEqual(admittedThenRefused);
      expect(beforeAgain.map((count) => count.allowed)).toEqual([false]);
      expect(await windowSizeOn(topology, topology.replica.port, counting, 'partner-after')).toBe(limitPerWindow);
      // The old primary lives on as a replica of the new one, once the sentinels have told it (within their 10 s INFO period).
      // A connection to it may be dropped while it turns into a replica: that answer is "not yet", asked again.
      const roleOfOldPrimary = (): Promise<unknown> => topology.query(topology.primary.port, (client) => client.role()).then((role) => role[0], () => undefined);
      await eventually('the old primary is a replica', async () => (await roleOfOldPrimary()) === 'slave', 15_000, topology);
      await eventually('the sentinels name the promoted replica', async () => (await topology.primaryPortNamedBySentinels()) === topology.replica.port, 10_000, topology);
      expect(summary.errors).toEqual([]);
      expect(rejections).toEqual([]);
      expect(summary.admitted).toBe(summary.calls);
      // Moved by the sentinels' announcement, not left on the old primary until it is demoted.
      expect(counting.logs.text()).toContain('the sentinels switched the redis primary; reconnecting to it');
      expect(counting.fallbackEvents.length).toBeGreaterThanOrEqual(2);
      expect(counting.fallbackEvents.at(-1)).toBe('leave');
      expect(counting.endsWithoutClose.count).toBe(0);
    });
  });
});
