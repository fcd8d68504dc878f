import type { Redis } from 'ioredis';
import { putOneTimeValue, takeOneTimeValue, type OneTimeValueSettings } from '../one-time/one-time-values';
import { sessionIdHash } from '../sessions/session-tokens';

/**
 * The parts of WebAuthn (passkeys) that do not depend on the verifier library, shared by the
 * consoles: where a challenge waits between the options and the answer, which relying party a
 * console is, and what a signature counter says. The verification itself (@simplewebauthn/server)
 * stays in the service, which passes the challenge taken here as the only one it expects.
 */
export type PasskeyCeremony = 'registration' | 'authentication';

/** Long enough for a person to find and touch their authenticator, short enough to be useless later (WebAuthn's own timeout is 5 minutes). */
export const passkeyChallengeTtlMs = 5 * 60_000;

/**
 * Keeps the challenge just sent in a ceremony's options, bound to the session that asked for it.
 * One challenge per session and ceremony: asking for new options replaces the earlier challenge.
 */
export async function keepPasskeyChallenge(
  redis: Redis,
  settings: OneTimeValueSettings,
  request: { ceremony: PasskeyCeremony; sessionId: string; challenge: string; ttlMs?: number },
): Promise<void> {
  const binding = sessionIdHash(request.sessionId);
  await putOneTimeValue(redis, settings, { purpose: `passkey-${request.ceremony}`, handle: binding, boundTo: binding, value: request.challenge, ttlMs: request.ttlMs ?? passkeyChallengeTtlMs });
}

/** Takes the session's challenge for the ceremony, once: undefined when none was asked for, it expired, or it was taken already. */
export async function takePasskeyChallenge(redis: Redis, settings: OneTimeValueSettings, request: { ceremony: PasskeyCeremony; sessionId: string }): Promise<string | undefined> {
  const binding = sessionIdHash(request.sessionId);
  return takeOneTimeValue(redis, settings, { purpose: `passkey-${request.ceremony}`, handle: binding, boundTo: binding });
}

/** The relying party a console is to WebAuthn: its RP ID is the host name of its public address, its origin that address's origin. */
export function passkeyRelyingPartyOf(publicUrl: string): { rpId: string; origin: string } {
  const url = new URL(publicUrl);
  return { rpId: url.hostname, origin: url.origin };
}

/**
 * WebAuthn §6.1.1: an authenticator that keeps a signature counter raises it on every assertion.
 * `advanced`: it did. `not_kept`: both are zero (many passkey providers keep none). `regressed`:
 * it stayed or went back, which means a replayed assertion or a cloned authenticator; refuse.
 */
export function signatureCounterVerdict(storedCounter: number, receivedCounter: number): 'advanced' | 'not_kept' | 'regressed' {
  if (storedCounter === 0 && receivedCounter === 0) return 'not_kept';
  return receivedCounter > storedCounter ? 'advanced' : 'regressed';
}

/** The signature counter in an assertion's authenticator data (base64url): bytes 33 to 36, big-endian; undefined when too short. */
export function signatureCounterOf(authenticatorDataBase64Url: string): number | undefined {
  const bytes = Buffer.from(authenticatorDataBase64Url, 'base64url');
  return bytes.length < 37 ? undefined : bytes.readUInt32BE(33);
}
