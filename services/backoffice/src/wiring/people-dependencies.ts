import type { Pool } from '@pwa/db';
import { open, parseSealingKey, seal } from '@pwa/sealing';
import { defaultSignInThrottlePolicy, type SecretSealer } from '@pwa/web-auth';
import type { Redis } from 'ioredis';
import type { BackofficeConfig } from '../config';
import type { PeopleDependencies } from '../use-cases/people-dependencies';

/** What the people use cases need, made once at start from the configuration, the pool and Redis. */
export function peopleDependenciesOf(config: Readonly<BackofficeConfig>, pool: Pool, redis: Redis): PeopleDependencies {
  const keyPrefix = `${config.REDIS_KEY_PREFIX}backoffice:`;
  return {
    pool,
    redis,
    sessions: { keyPrefix, idleTimeoutMs: config.BACKOFFICE_SESSION_IDLE_MINUTES * 60_000, absoluteTimeoutMs: config.BACKOFFICE_SESSION_ABSOLUTE_HOURS * 3_600_000, mfaPendingTimeoutMs: 5 * 60_000 },
    throttle: { keyPrefix, policy: defaultSignInThrottlePolicy },
    sealer: sealerOf(config.BACKOFFICE_SEALING_KEY),
    totpIssuer: 'Partner Wallet Back-office',
  };
}

function sealerOf(base64Key: string): SecretSealer {
  const key = parseSealingKey(base64Key);
  return {
    seal: (plaintext, associatedData) => seal(plaintext, key, associatedData).toString('base64'),
    open: (sealed, associatedData) => open(Buffer.from(sealed, 'base64'), key, associatedData),
  };
}
