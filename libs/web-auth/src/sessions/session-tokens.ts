import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const tokenLengthBytes = 32;
/** 32 bytes in base64url without padding is 43 characters. */
const wellFormedToken = /^[A-Za-z0-9_-]{43}$/;

/** A new opaque session id: 32 random bytes (256 bits), base64url. Only the browser's cookie holds it. */
export function generateSessionId(): string {
  return randomBytes(tokenLengthBytes).toString('base64url');
}

/** A new synchronizer CSRF token, made with the session and kept in it. */
export function generateCsrfToken(): string {
  return randomBytes(tokenLengthBytes).toString('base64url');
}

/** Whether a cookie value has the shape of a session id, checked before any Redis call. */
export function isWellFormedSessionId(value: string): boolean {
  return wellFormedToken.test(value);
}

/**
 * The SHA-256 of a session id, in hex: the only form of the id Redis sees. The id has 256 random
 * bits, so a fast hash suffices (no salt or work factor); someone who reads the store cannot turn
 * a key back into a cookie.
 */
export function sessionIdHash(sessionId: string): string {
  return createHash('sha256').update(sessionId, 'utf8').digest('hex');
}

/**
 * Whether the token a request offers (the `X-CSRF-Token` header of a state-changing call) is the
 * session's. Both are hashed first so the comparison is constant-time whatever their lengths.
 */
export function csrfTokenMatches(sessionToken: string, offered: string | undefined): boolean {
  if (offered === undefined || offered === '' || sessionToken === '') return false;
  const expected = createHash('sha256').update(sessionToken, 'utf8').digest();
  const actual = createHash('sha256').update(offered, 'utf8').digest();
  return timingSafeEqual(expected, actual);
}
