import type { AuditEntryInput } from '@pwa/audit';
import { appendAuditEntry } from '@pwa/audit';
import type { Pool } from '@pwa/db';
import type { WindowCount } from '@pwa/redis';
import type { Redis } from 'ioredis';
import type { PasskeyRelyingParty, RequestOrigin as ConsoleRequestOrigin, SecretSealer, SessionSettings, SignInThrottleSettings } from '@pwa/web-auth';
import type { InvitationMailer } from '../upstream/invitation-mailer';

/** What the team and sign-in use cases need, made once at start (tests make their own). */
export interface PeopleDependencies {
  pool: Pool;
  redis: Redis;
  sessions: SessionSettings;
  throttle: SignInThrottleSettings;
  /** Seals TOTP secrets with the dashboard's key (libs/sealing), bound to the member. */
  sealer: SecretSealer;
  /** The dashboard's name in authenticator apps. */
  totpIssuer: string;
  /** The dashboard's address as people open it: invitation links point at it. */
  publicUrl: string;
  /** The dashboard as a WebAuthn relying party: its public address's host and origin. */
  passkeys: PasskeyRelyingParty;
  /** How long after a sign-in an admin's change needs no new code (0: every change asks for one). */
  freshMfaMs: number;
  /** Sends invitations by e-mail when DASHBOARD_SMTP_URL is set. */
  mailer?: InvitationMailer;
  /** The clock for TOTP; Date.now unless a test fixes it. */
  now?: () => number;
  /**
   * Counts one member request in the partner's window (its rate limit per minute as on the API,
   * the dashboard's own window); absent only in hand-made test dependencies.
   */
  countPartnerRequest?: (partnerId: string, requestId: string | null) => Promise<WindowCount>;
}

/** Where a request came from, for the throttle and the audit log (libs/web-auth console-input). */
export type RequestOrigin = ConsoleRequestOrigin;

/** The associated data a TOTP secret is sealed with: a sealed secret copied to another member does not open. */
export const totpSecretBinding = (memberId: string): string => `dashboard:member:${memberId}:totp`;

/** The actor of a step whose person is not known (an unknown address, a throttled attempt). */
export const unidentified = { kind: 'person', id: 'unidentified', displayName: 'unidentified' } as const;

export function personOf(member: { memberId: string; displayName: string }): AuditEntryInput['actor'] {
  return { kind: 'person', id: member.memberId, displayName: member.displayName };
}

/** One entry of the partner's audit log (never a secret), with where the request came from. */
export function auditOf(
  deps: Pick<PeopleDependencies, 'pool'>,
  origin: RequestOrigin,
  entry: Pick<AuditEntryInput, 'actor' | 'action' | 'target' | 'outcome' | 'reason' | 'before' | 'after' | 'partnerId'>,
): Promise<unknown> {
  return appendAuditEntry(deps.pool, { ...entry, address: origin.address, userAgent: origin.userAgent, requestId: origin.requestId });
}
