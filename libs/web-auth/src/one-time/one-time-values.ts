import { createHash, timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Values a sign-in ceremony keeps server-side for one later step, then spends: a WebAuthn
 * challenge, an OpenID Connect state with its nonce and PKCE verifier. Each is stored under a
 * handle (the state the browser brings back, or the session it belongs to), bound to who may
 * spend it (the session, or a browser cookie), with a short TTL, and taken with GETDEL: the first
 * take spends it, whoever takes it, so a value that leaked or was guessed at the wrong binding is
 * gone rather than left for a second try. Keys and bindings are stored as SHA-256, never as given.
 */
export interface OneTimeValueSettings {
  /** The service's prefix, as for sessions (for example `${REDIS_KEY_PREFIX}backoffice:`). */
  keyPrefix: string;
}

export interface OneTimeValueHandle {
  /** What the value is for (`passkey-registration`, `oidc`): one handle never serves two purposes. */
  purpose: string;
  /** How it is found again: a state value, or a session's id hash. */
  handle: string;
  /** Who may spend it: the session id hash, or a browser-binding cookie's value. */
  boundTo: string;
}

const purposeShape = /^[a-z][a-z0-9-]{0,39}$/;

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function keyOf(settings: OneTimeValueSettings, entry: OneTimeValueHandle): string {
  if (!purposeShape.test(entry.purpose)) throw new Error('A one-time value purpose must be lower-case words joined by hyphens');
  if (entry.handle === '' || entry.boundTo === '') throw new Error('A one-time value needs a handle and a binding');
  return `${settings.keyPrefix}one-time:${entry.purpose}:${sha256Hex(entry.handle)}`;
}

/** Stores a value for one take within ttlMs; a value under the same handle is replaced (one outstanding ceremony per handle). */
export async function putOneTimeValue(redis: Redis, settings: OneTimeValueSettings, entry: OneTimeValueHandle & { value: string; ttlMs: number }): Promise<void> {
  if (!Number.isSafeInteger(entry.ttlMs) || entry.ttlMs < 1) throw new Error('A one-time value needs a positive whole TTL in milliseconds');
  await redis.set(keyOf(settings, entry), JSON.stringify({ binding: sha256Hex(entry.boundTo), value: entry.value }), 'PX', entry.ttlMs);
}

/**
 * Takes the value once. Undefined when there is none (never stored, taken already, expired) or
 * when it was bound to someone else; in that last case it is spent all the same.
 */
export async function takeOneTimeValue(redis: Redis, settings: OneTimeValueSettings, entry: OneTimeValueHandle): Promise<string | undefined> {
  const stored = await redis.getdel(keyOf(settings, entry));
  if (stored === null) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { binding, value } = parsed as { binding?: unknown; value?: unknown };
  if (typeof binding !== 'string' || typeof value !== 'string') return undefined;
  const expected = Buffer.from(sha256Hex(entry.boundTo), 'utf8');
  const actual = Buffer.from(binding, 'utf8');
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return undefined;
  return value;
}
