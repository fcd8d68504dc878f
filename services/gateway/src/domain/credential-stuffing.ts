import { addressBucketOf } from '@pwa/redis';
import { uuidPattern } from '@pwa/contracts';

/**
 * Credential-stuffing protection of the token endpoint, decided from counts kept in Redis:
 *
 * 1. Every source IP may call the endpoint a bounded number of times per minute, whatever the
 *    outcome (this also bounds the work auth spends hashing guessed secrets).
 * 2. After too many failed attempts (PKC_1002) for one client_id within a window, that client_id
 *    is locked for the rest of the window: attempts are answered 429 without reaching auth, so they
 *    cannot extend the lock. The window starts at the first failure and is fixed, so a lock ends at
 *    most one window after it began.
 * 3. A source that obtained a token for that client_id recently is not locked out by failures made
 *    elsewhere, so an attacker who knows a partner's client_id cannot cut the partner off.
 */
export interface ClientLockoutState {
  failureCount: number;
  /** Milliseconds until the failure window ends; 0 when no window is open. */
  windowRemainingMs: number;
  sourceIsTrusted: boolean;
}

export type LockoutDecision = { locked: false } | { locked: true; retryAfterSeconds: number };

export function decideClientLockout(state: ClientLockoutState, failuresMax: number): LockoutDecision {
  if (state.sourceIsTrusted || state.failureCount < failuresMax || state.windowRemainingMs <= 0) return { locked: false };
  return { locked: true, retryAfterSeconds: Math.max(1, Math.ceil(state.windowRemainingMs / 1000)) };
}

/**
 * The client_id a token request names, normalised, or undefined when it names none that auth could
 * accept (auth answers those with PKC_1001, which is not a credential failure and is not counted).
 * The client id comes from `Authorization: Basic` (client_secret_basic) or the body's client_id
 * (client_secret_post); when both are given they must agree, or auth refuses the request as malformed.
 */
export function clientIdOfTokenRequest(body: unknown, authorizationHeader?: string): string | undefined {
  const fromBody = typeof body === 'object' && body !== null ? (body as { client_id?: unknown }).client_id : undefined;
  const bodyClientId = typeof fromBody === 'string' && uuidPattern.test(fromBody) ? fromBody.toLowerCase() : undefined;
  if (authorizationHeader === undefined) return bodyClientId;
  const headerClientId = basicClientIdOf(authorizationHeader);
  const bodyNamesNone = fromBody === undefined || fromBody === null || fromBody === '';
  return bodyNamesNone || bodyClientId === headerClientId ? headerClientId : undefined;
}

const basicCredentials = /^Basic +([A-Za-z0-9+/]+={0,2})$/i;
/** Longer than any client id and secret auth accepts, form-encoded and in base64 (auth refuses longer). */
const basicCredentialsLengthMax = 2048;

/**
 * The client id of an `Authorization: Basic` header: base64 of the form-urlencoded client id, a
 * colon and the form-urlencoded secret (RFC 6749 §2.3.1). Only the id is read; the secret is
 * never decoded here.
 */
function basicClientIdOf(header: string): string | undefined {
  const trimmed = header.trim();
  if (trimmed.length > basicCredentialsLengthMax) return undefined;
  const encoded = basicCredentials.exec(trimmed)?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('latin1');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    const clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
    return uuidPattern.test(clientId) ? clientId.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/** Whether auth's answer says the credentials were wrong (as opposed to malformed, or a suspended partner). */
export function isCredentialFailure(status: number, body: unknown): boolean {
  if (status !== 401 || typeof body !== 'object' || body === null) return false;
  return (body as { code?: unknown }).code === 'PKC_1002';
}

/** The budget key of a source address: IPv6 addresses share their /64's budget (addressBucketOf of @pwa/redis). */
export const sourceBucketOf = addressBucketOf;
