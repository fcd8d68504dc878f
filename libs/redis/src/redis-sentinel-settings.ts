import { ConfigError, addressListField, parseAddressList, unsetWhenBlank, z, type AddressListShape, type NetworkAddress } from '@pwa/config';

/** One sentinel's address. */
export type RedisAddress = NetworkAddress;

/**
 * How to reach Redis through Sentinel (docs/redis-topologies.md): any sentinel that answers names
 * the current primary of masterName, and the connection follows that primary through failovers.
 * REDIS_URL still gives the primary's username, password, database and TLS (rediss://); its host
 * and port are not used.
 */
export interface RedisSentinelSettings {
  sentinels: readonly RedisAddress[];
  /** The name the sentinels monitor the primary under (`sentinel monitor <name> …`). */
  masterName: string;
  /** The sentinels' own password (`requirepass` in sentinel.conf), when they have one. */
  password?: string | undefined;
}

const sentinelList: AddressListShape = { defaultPort: 26379, max: 16, noun: 'sentinels' };

/**
 * REDIS_SENTINELS as written: comma-separated `host:port` (IPv6 in brackets, port 26379 when
 * left out), no duplicates, at most 16 (a Sentinel deployment has three or five).
 */
export function parseSentinelAddresses(text: string): { addresses: RedisAddress[]; problems: string[] } {
  return parseAddressList(text, sentinelList);
}

/**
 * The Sentinel settings, the same in every service that uses Redis: spread into the service's
 * config schema beside REDIS_URL. None set: REDIS_URL names the one Redis server (standalone).
 */
export const redisSentinelConfigFields = {
  /** Comma-separated host:port of the sentinels (port 26379 when left out). Set: connect through them. */
  REDIS_SENTINELS: addressListField(sentinelList),
  /** The master name the sentinels monitor (`sentinel monitor <name> …`); required with REDIS_SENTINELS. */
  REDIS_SENTINEL_MASTER_NAME: z.preprocess(unsetWhenBlank, z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'letters, digits, ".", "_" or "-", up to 64').optional()),
  /** The sentinels' own password (sentinel.conf `requirepass`), a secret; unset when they have none. */
  REDIS_SENTINEL_PASSWORD: z.preprocess(unsetWhenBlank, z.string().optional()),
};

export type RedisSentinelConfig = z.output<z.ZodObject<typeof redisSentinelConfigFields>>;

/** Why these settings cannot run together, if they cannot: a half-set Sentinel is refused, never ignored. */
export function redisSentinelProblems(config: Readonly<RedisSentinelConfig>): { key: string; message: string }[] {
  if (config.REDIS_SENTINELS !== undefined) {
    return config.REDIS_SENTINEL_MASTER_NAME === undefined ? [{ key: 'REDIS_SENTINEL_MASTER_NAME', message: 'required when REDIS_SENTINELS is set' }] : [];
  }
  return (['REDIS_SENTINEL_MASTER_NAME', 'REDIS_SENTINEL_PASSWORD'] as const)
    .filter((key) => config[key] !== undefined)
    .map((key) => ({ key, message: 'set only with REDIS_SENTINELS (without it REDIS_URL names the one Redis server, and this would be ignored)' }));
}

/**
 * The Sentinel settings for connectRedis, or undefined for a standalone Redis (REDIS_SENTINELS
 * unset). Throws ConfigError (naming the keys, never their values) when they are half set, so a
 * service refuses to boot rather than connect somewhere it was not meant to.
 */
export function redisSentinelOf(config: Readonly<RedisSentinelConfig>): RedisSentinelSettings | undefined {
  const problems = redisSentinelProblems(config);
  if (problems.length > 0) throw new ConfigError(problems.map((problem) => `${problem.key}: ${problem.message}`));
  if (config.REDIS_SENTINELS === undefined || config.REDIS_SENTINEL_MASTER_NAME === undefined) return undefined;
  return { sentinels: config.REDIS_SENTINELS, masterName: config.REDIS_SENTINEL_MASTER_NAME, password: config.REDIS_SENTINEL_PASSWORD };
}
