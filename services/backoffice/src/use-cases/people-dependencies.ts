import type { Pool } from '@pwa/db';
import type { Redis } from 'ioredis';
import type { PasskeyRelyingParty, RequestOrigin as ConsoleRequestOrigin, SecretSealer, SessionSettings, SignInThrottleSettings } from '@pwa/web-auth';
import type { OidcIdentityProvider } from './oidc-identity-provider';

/** What the set-up and sign-in use cases need, made once at start (tests make their own). */
export interface PeopleDependencies {
  pool: Pool;
  redis: Redis;
  sessions: SessionSettings;
  throttle: SignInThrottleSettings;
  /** Seals TOTP secrets with the back-office's key (libs/sealing), bound to the operator. */
  sealer: SecretSealer;
  /** The console's name in authenticator apps. */
  totpIssuer: string;
  /** The clock for TOTP; Date.now unless a test fixes it. */
  now?: () => number;
  /** The console as a WebAuthn relying party: RP ID the host name of BACKOFFICE_PUBLIC_URL, origin its origin (decision 0070). */
  passkeys?: PasskeySettings;
  /** Sign-in with the company's identity provider, when BACKOFFICE_OIDC_* are set (decision 0071). */
  oidc?: OidcIdentityProvider;
}

export interface PasskeySettings extends PasskeyRelyingParty {
  /** Adding or removing a passkey needs a sign-in completed this recently (a stolen session cannot plant a factor). */
  recentSignInMs: number;
}

/** Where a request came from, for the throttle and the audit log (libs/web-auth console-input). */
export type RequestOrigin = ConsoleRequestOrigin;

/** The associated data a TOTP secret is sealed with: a sealed secret copied to another operator does not open. */
export const totpSecretBinding = (operatorId: string): string => `backoffice:operator:${operatorId}:totp`;
