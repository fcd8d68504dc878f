import type { Redis } from 'ioredis';
import type { AdmissionPorts } from '../domain/admit-partner-request';
import type { ClientLockoutState } from '../domain/credential-stuffing';
import type { TokenEndpointPorts } from '../domain/guard-token-endpoint';
import { InsuredWindowLimiter, type RedisFallback } from '@pwa/redis';
import { readClientLockout, recordCredentialFailure, recordCredentialSuccess, type TokenEndpointKeys } from './token-endpoint-store';

export interface RedisPortSettings {
  /** REDIS_KEY_PREFIX; every key of the gateway lives under `<prefix>gateway:`. */
  keyPrefix: string;
  /** Length of the per-partner window: a minute (RATE_LIMIT_PER_MINUTE), shorter only under the sandbox's test hook. */
  partnerWindowSeconds: number;
  tokenEndpointSourceLimitPerMinute: number;
  clientLockoutSeconds: number;
  trustedSourceSeconds: number;
}

const oneMinuteSeconds = 60;

/** While Redis is away the client lockout is not known: no failures, no trusted source (fail open). */
const lockoutUnknown: ClientLockoutState = { failureCount: 0, windowRemainingMs: 0, sourceIsTrusted: false };

/**
 * The admission and token-endpoint ports that keep their counts in Redis (shared by all replicas).
 * When Redis cannot be used the gateway keeps serving (docs/runbooks.md, GatewayRateLimitFallback):
 * the per-partner and per-source windows are counted in this instance's memory (the limiters'
 * insurance), and the client lockout fails open (failures are not counted and no client is locked;
 * the per-source window still bounds how fast one address can guess). Each port notes Redis's
 * answer or failure in `fallback`, which returns to Redis at the first answer.
 */
export function createRedisPorts(
  redis: Redis,
  settings: RedisPortSettings,
  fallback: RedisFallback,
): Pick<AdmissionPorts, 'countPartnerRequest'> & TokenEndpointPorts {
  const key = (name: string): string => `${settings.keyPrefix}gateway:${name}`;
  const tokenKeys = (clientId: string, sourceAddress: string): TokenEndpointKeys => ({
    failures: key(`token-failures:${clientId}`),
    trustedSource: key(`token-trusted:${clientId}:${sourceAddress}`),
  });
  const partnerWindows = new InsuredWindowLimiter(redis, { keyPrefix: key('rate:partner'), windowSeconds: settings.partnerWindowSeconds, fallback });
  const sourceWindows = new InsuredWindowLimiter(redis, { keyPrefix: key('rate:token-source'), windowSeconds: oneMinuteSeconds, fallback });
  const failOpen = async <T>(call: () => Promise<T>, whileAway: T): Promise<T> => {
    if (!fallback.shouldTryRedis()) return whileAway;
    try {
      const value = await call();
      fallback.noteRedisAnswered();
      return value;
    } catch {
      fallback.noteRedisFailed();
      return whileAway;
    }
  };
  return {
    countPartnerRequest: (partnerId, limitPerMinute) => partnerWindows.count(partnerId, limitPerMinute),
    countSourceRequest: (sourceAddress) => sourceWindows.count(sourceAddress, settings.tokenEndpointSourceLimitPerMinute),
    readClientLockout: (clientId, sourceAddress) => failOpen(() => readClientLockout(redis, tokenKeys(clientId, sourceAddress)), lockoutUnknown),
    recordCredentialFailure: (clientId) => failOpen(() => recordCredentialFailure(redis, tokenKeys(clientId, ''), settings.clientLockoutSeconds), undefined),
    recordCredentialSuccess: (clientId, sourceAddress) =>
      failOpen(() => recordCredentialSuccess(redis, tokenKeys(clientId, sourceAddress), settings.trustedSourceSeconds), undefined),
  };
}
