import { ConfigError, z } from '@pwa/config';

/** One sentinel's address. */
export interface RedisAddress {
  host: string;
  port: number;
}

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

const sentinelPortDefault = 26379;
/** A Sentinel deployment has three or five; the bound only catches a pasted list gone wrong. */
const sentinelsMax = 16;
const hostShape = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const ipv6Shape = /^[0-9A-Fa-f:.]+$/;

/** An unset variable and an empty one (as compose and Helm render an unset value) mean the same. */
function unsetWhenBlank(value: unknown): unknown {
  return typeof value === 'string' && value.trim() === '' ? undefined : value;
}

/** `host:port` (port optional, 26379), `[ipv6]:port`; the problem with it, or the address. */
function parseAddress(entry: string): RedisAddress | string {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(entry);
  if (match === null) return `"${entry}" is not host:port`;
  const [, ipv6, name, portText] = match;
  const host = ipv6 ?? name ?? '';
  if (ipv6 !== undefined ? !ipv6Shape.test(ipv6) : !hostShape.test(host)) return `"${entry}" has no valid host name or address`;
  const port = portText === undefined ? sentinelPortDefault : Number(portText);
  if (port < 1 || port > 65_535) return `"${entry}" has a port outside 1-65535`;
  return { host, port };
}

/**
 * REDIS_SENTINELS as written: comma-separated `host:port` (IPv6 in brackets, port 26379 when
 * left out), no duplicates, at most 16. Answers the addresses, or the problems (naming the
 * entries, which are addresses, not secrets).
 */
export function parseSentinelAddresses(text: string): { addresses: RedisAddress[]; problems: string[] } {
  const entries = text.split(',').map((entry) => entry.trim());
  const problems: string[] = [];
  const addresses: RedisAddress[] = [];
  if (entries.length > sentinelsMax) problems.push(`at most ${String(sentinelsMax)} sentinels`);
  for (const entry of entries.slice(0, sentinelsMax)) {
    if (entry === '') {
      problems.push('an empty entry (two commas, or a comma at an end)');
      continue;
    }
    const parsed = parseAddress(entry);
    if (typeof parsed === 'string') problems.push(parsed);
    else if (addresses.some((known) => known.host === parsed.host && known.port === parsed.port)) problems.push(`"${entry}" is listed twice`);
    else addresses.push(parsed);
  }
  return { addresses, problems };
}

const sentinelAddressesField = z
  .string()
  .superRefine((text, context) => {
    for (const problem of parseSentinelAddresses(text).problems) context.addIssue({ code: 'custom', message: `comma-separated host:port of the sentinels: ${problem}` });
  })
  .transform((text) => parseSentinelAddresses(text).addresses);

/**
 * The Sentinel settings, the same in every service that uses Redis: spread into the service's
 * config schema beside REDIS_URL. None set: REDIS_URL names the one Redis server (standalone).
 */
export const redisSentinelConfigFields = {
  /** Comma-separated host:port of the sentinels (port 26379 when left out). Set: connect through them. */
  REDIS_SENTINELS: z.preprocess(unsetWhenBlank, sentinelAddressesField.optional()),
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
