import type { Pool } from '@pwa/db';
import { open, seal } from '@pwa/sealing';
import { defaultSignInThrottlePolicy, passkeyRelyingPartyOf } from '@pwa/web-auth';
import type { Redis } from 'ioredis';
import type { DashboardConfig } from '../config';
import type { PeopleDependencies } from '../use-cases/people-dependencies';

/** What the people use cases need, made once at start from the configuration, the pool and Redis. */
export function peopleDependenciesOf(config: Readonly<DashboardConfig>, pool: Pool, redis: Redis): PeopleDependencies {
  const keyPrefix = `${config.REDIS_KEY_PREFIX}dashboard:`;
  const key = Buffer.from(config.DASHBOARD_SEALING_KEY, 'base64');
  return {
    pool,
    redis,
    sessions: { keyPrefix, idleTimeoutMs: config.DASHBOARD_SESSION_IDLE_MINUTES * 60_000, absoluteTimeoutMs: config.DASHBOARD_SESSION_ABSOLUTE_HOURS * 3_600_000, mfaPendingTimeoutMs: 5 * 60_000 },
    throttle: { keyPrefix, policy: defaultSignInThrottlePolicy },
    sealer: { seal: (plaintext, associatedData) => seal(plaintext, key, associatedData).toString('base64'), open: (sealed, associatedData) => open(Buffer.from(sealed, 'base64'), key, associatedData) },
    totpIssuer: 'Partner Wallet Dashboard',
    publicUrl: config.DASHBOARD_PUBLIC_URL,
    passkeys: { ...passkeyRelyingPartyOf(config.DASHBOARD_PUBLIC_URL), rpName: 'Partner Wallet Dashboard' },
    freshMfaMs: config.DASHBOARD_FRESH_MFA_MINUTES * 60_000,
  };
}
