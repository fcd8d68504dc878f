export interface SessionSettings {
  /**
   * Prefix of every key the sessions use, ending with a separator: for a service
   * `${REDIS_KEY_PREFIX}backoffice:` (one prefix per service, so the two consoles' sessions never
   * meet); tests use a prefix of their own.
   */
  keyPrefix: string;
  /** A session unused this long ends (sliding: every read that refreshes moves it). */
  idleTimeoutMs: number;
  /** A signed-in session ends this long after sign-in completed, however busy it is. */
  absoluteTimeoutMs: number;
  /** A session waiting for its MFA code ends this long after the password was accepted. */
  mfaPendingTimeoutMs: number;
  /** The clock; Date.now unless a test fixes it. Redis key expiry still runs on Redis's clock. */
  now?: () => number;
}

/** OWASP ASVS level 2 style: 15 minutes idle, 8 hours (a working day) in all, 5 minutes to give the code. */
export const defaultSessionTimeouts = {
  idleTimeoutMs: 15 * 60_000,
  absoluteTimeoutMs: 8 * 60 * 60_000,
  mfaPendingTimeoutMs: 5 * 60_000,
} as const;

/** Throws at start when the settings cannot make sense; the message names the setting, never a value. */
export function checkSessionSettings(settings: SessionSettings): void {
  for (const name of ['idleTimeoutMs', 'absoluteTimeoutMs', 'mfaPendingTimeoutMs'] as const) {
    const value = settings[name];
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`Session setting ${name} must be a positive whole number of milliseconds`);
  }
  if (settings.idleTimeoutMs > settings.absoluteTimeoutMs) throw new Error('Session setting idleTimeoutMs must not exceed absoluteTimeoutMs');
  if (settings.mfaPendingTimeoutMs > settings.absoluteTimeoutMs) throw new Error('Session setting mfaPendingTimeoutMs must not exceed absoluteTimeoutMs');
  if (settings.keyPrefix === '') throw new Error('Session setting keyPrefix must not be empty');
}
