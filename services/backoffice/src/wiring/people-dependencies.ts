import type { Pool } from '@pwa/db';
import { open, seal } from '@pwa/sealing';
import { defaultSignInThrottlePolicy, passkeyRelyingPartyOf, type SecretSealer } from '@pwa/web-auth';
import type { Redis } from 'ioredis';
import { totpSealingKeysOf, type BackofficeConfig } from '../config';
import { createOidcIdentityProvider } from '../use-cases/oidc-identity-provider';
import type { PeopleDependencies } from '../use-cases/people-dependencies';

/** Where the identity provider sends the browser back; registered as the client's redirect URI. */
export const oidcCallbackPath = '/api/v1/session/oidc/callback';

/** What the people use cases need, made once at start from the configuration, the pool and Redis. */
export function peopleDependenciesOf(config: Readonly<BackofficeConfig>, pool: Pool, redis: Redis): PeopleDependencies {
  const keyPrefix = `${config.REDIS_KEY_PREFIX}backoffice:`;
  return {
    pool,
    redis,
    sessions: { keyPrefix, idleTimeoutMs: config.BACKOFFICE_SESSION_IDLE_MINUTES * 60_000, absoluteTimeoutMs: config.BACKOFFICE_SESSION_ABSOLUTE_HOURS * 3_600_000, mfaPendingTimeoutMs: 5 * 60_000 },
    throttle: { keyPrefix, policy: defaultSignInThrottlePolicy },
    sealer: sealerOf(config),
    totpIssuer: 'Partner Wallet Back-office',
    // RP ID: the console's host name; origin: its origin (decision 0070). A factor changes only within 15 minutes of a sign-in.
    passkeys: { ...passkeyRelyingPartyOf(config.BACKOFFICE_PUBLIC_URL), rpName: 'Partner Wallet Back-office', recentSignInMs: 15 * 60_000 },
    ...oidcOf(config),
  };
}

/**
 * Seals with the current key; opens with the current key, then (during a rotation, until
 * `reseal-totp-secrets` has run) with BACKOFFICE_SEALING_KEY_PREVIOUS.
 */
function sealerOf(config: Readonly<BackofficeConfig>): SecretSealer {
  const { current, previous } = totpSealingKeysOf(config);
  return {
    seal: (plaintext, associatedData) => seal(plaintext, current, associatedData).toString('base64'),
    open: (sealed, associatedData) => {
      const bytes = Buffer.from(sealed, 'base64');
      try {
        return open(bytes, current, associatedData);
      } catch (error) {
        if (previous === undefined) throw error;
        return open(bytes, previous, associatedData);
      }
    },
  };
}

/** The identity provider when BACKOFFICE_OIDC_* are set (the config requires all three or none); nothing is fetched here. */
function oidcOf(config: Readonly<BackofficeConfig>): Pick<PeopleDependencies, 'oidc'> {
  const { BACKOFFICE_OIDC_ISSUER_URL: issuerUrl, BACKOFFICE_OIDC_CLIENT_ID: clientId, BACKOFFICE_OIDC_CLIENT_SECRET: clientSecret } = config;
  if (issuerUrl === undefined || clientId === undefined || clientSecret === undefined) return {};
  const redirectUri = `${new URL(config.BACKOFFICE_PUBLIC_URL).origin}${oidcCallbackPath}`;
  return { oidc: createOidcIdentityProvider({ issuerUrl, clientId, clientSecret, redirectUri }) };
}
