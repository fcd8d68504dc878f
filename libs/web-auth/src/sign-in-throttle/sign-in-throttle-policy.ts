/**
 * Sign-in throttling, decided from counts kept in Redis (sign-in-throttle-store.ts):
 *
 * 1. Per account: after accountFailuresMax failed attempts (a wrong password or a wrong MFA code)
 *    within accountWindowMs of the first, the account is locked for accountLockMs. Attempts while
 *    locked are refused before the password is checked, so they cannot extend the lock.
 * 2. Per address: after addressFailuresMax failures from one address (an IPv6 /64 counts as one)
 *    within addressWindowMs, that address is refused until the window ends; this slows one source
 *    trying one password against many accounts.
 *
 * The account key is the identifier the person typed, normalised, whether or not an account has
 * it: an unknown email is counted and locked exactly like a known one, so neither the refusal nor
 * its timing says whether the account exists. Callers answer every refusal with the same words.
 */
export interface SignInThrottlePolicy {
  accountFailuresMax: number;
  accountWindowMs: number;
  accountLockMs: number;
  addressFailuresMax: number;
  addressWindowMs: number;
}

export const defaultSignInThrottlePolicy: SignInThrottlePolicy = {
  accountFailuresMax: 5,
  accountWindowMs: 15 * 60_000,
  accountLockMs: 15 * 60_000,
  addressFailuresMax: 50,
  addressWindowMs: 15 * 60_000,
};

export interface SignInThrottleState {
  accountFailures: number;
  /** Milliseconds the account stays locked; 0 when it is not locked. */
  accountLockRemainingMs: number;
  addressFailures: number;
  /** Milliseconds until the address's window ends; 0 when no window is open. */
  addressWindowRemainingMs: number;
}

/**
 * The reason is for logs and metrics only: the answer to the person is the same for both (for
 * example 429 "Too many sign-in attempts. Try again in N minutes.", with Retry-After).
 */
export type SignInThrottleDecision = { allowed: true } | { allowed: false; reason: 'account_locked' | 'address_throttled'; retryAfterSeconds: number };

export function decideSignInAttempt(state: SignInThrottleState, policy: SignInThrottlePolicy): SignInThrottleDecision {
  if (state.accountLockRemainingMs > 0) return { allowed: false, reason: 'account_locked', retryAfterSeconds: secondsOf(state.accountLockRemainingMs) };
  if (state.addressFailures >= policy.addressFailuresMax && state.addressWindowRemainingMs > 0) {
    return { allowed: false, reason: 'address_throttled', retryAfterSeconds: secondsOf(state.addressWindowRemainingMs) };
  }
  return { allowed: true };
}

function secondsOf(milliseconds: number): number {
  return Math.max(1, Math.ceil(milliseconds / 1000));
}

/** Throws at start when the policy cannot make sense; the message names the setting. */
export function checkSignInThrottlePolicy(policy: SignInThrottlePolicy): void {
  for (const [name, value] of Object.entries(policy)) {
    if (!Number.isSafeInteger(value) || (value as number) < 1) throw new Error(`Sign-in throttle setting ${name} must be a positive whole number`);
  }
}

/**
 * The form an identifier is counted under: NFKC, trimmed, lower case, so `Ann@Example.com ` and
 * `ann@example.com` share one counter.
 */
export function normaliseSignInIdentifier(identifier: string): string {
  return identifier.normalize('NFKC').trim().toLowerCase();
}
