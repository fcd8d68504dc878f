import { createHash, randomBytes } from 'node:crypto';

/**
 * A one-time set-up link (an operator's set-up, a partner member's invitation): 32 random bytes
 * (base64url) that the person opens once to set their password and enrol MFA. Only its SHA-256 is
 * stored, so the table never holds a usable link; the token appears once, in the command's output
 * or the inviting admin's screen (or the invitation e-mail).
 */
export const setupLinkLifetimeSeconds = 24 * 60 * 60;

export interface SetupToken {
  token: string;
  sha256: Buffer;
}

export function newSetupToken(): SetupToken {
  const token = randomBytes(32).toString('base64url');
  return { token, sha256: setupTokenDigest(token) };
}

export function setupTokenDigest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** The link a person opens: the token travels in the fragment, so it never reaches a server log or a Referer. */
export function setupLinkUrl(consoleBaseUrl: string, token: string, pagePath = '/setup'): string {
  const url = new URL(pagePath, consoleBaseUrl);
  url.hash = `token=${token}`;
  return url.toString();
}

/** An e-mail address as people are identified by it: trimmed and lower-cased; undefined when it is not one. */
export function normalisedEmail(raw: string): string | undefined {
  const email = raw.trim().toLowerCase();
  return /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/.test(email) && email.length <= 254 ? email : undefined;
}
