import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkSignInAllowed, readSignInThrottleState, recordSignInFailure, recordSignInSuccess, type SignInThrottleSettings } from '../../src';
import { redisTestKeys } from '../support/redis-test-keys';

const { redis, keyPrefix, keysUnderPrefix } = redisTestKeys('sign-in');
const settings: SignInThrottleSettings = {
  keyPrefix,
  policy: { accountFailuresMax: 5, accountWindowMs: 60_000, accountLockMs: 1_000, addressFailuresMax: 30, addressWindowMs: 60_000 },
};

/** Each test its own identifier and address, so no test sees another's counts. */
function freshAttempt(): { identifier: string; address: string } {
  const octet = (): number => Math.floor(Math.random() * 254) + 1;
  return { identifier: `${randomUUID()}@example.com`, address: `10.${octet()}.${octet()}.${octet()}` };
}

describe('account lockout', () => {
  it('when an account fails 4 times, then it may still try; at the 5th failure it is locked, whatever case the identifier is typed in', async () => {
    const attempt = freshAttempt();
    for (let failure = 0; failure < 4; failure += 1) await recordSignInFailure(redis, settings, attempt);
    expect(await checkSignInAllowed(redis, settings, attempt)).toEqual({ allowed: true });
    await recordSignInFailure(redis, settings, attempt);
    expect(await checkSignInAllowed(redis, settings, { ...attempt, identifier: ` ${attempt.identifier.toUpperCase()}` })).toEqual({
      allowed: false,
      reason: 'account_locked',
      retryAfterSeconds: 1,
    });
    expect(await checkSignInAllowed(redis, settings, { ...attempt, address: '192.0.2.10' })).toMatchObject({ allowed: false, reason: 'account_locked' });
  });

  it('when the lock period has passed, then the account may try again', async () => {
    const attempt = freshAttempt();
    for (let failure = 0; failure < 5; failure += 1) await recordSignInFailure(redis, settings, attempt);
    expect((await checkSignInAllowed(redis, settings, attempt)).allowed).toBe(false);
    await sleep(1_100);
    expect(await checkSignInAllowed(redis, settings, attempt)).toEqual({ allowed: true });
  });

  it('when 20 failures for one account arrive at once, then each is counted exactly once and the lock is set', async () => {
    const attempt = freshAttempt();
    const counts = await Promise.all(Array.from({ length: 20 }, () => recordSignInFailure(redis, settings, attempt)));
    expect(counts.map((count) => count.accountFailures).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    expect(await readSignInThrottleState(redis, settings, attempt)).toMatchObject({ accountFailures: 20, addressFailures: 20 });
    expect((await readSignInThrottleState(redis, settings, attempt)).accountLockRemainingMs).toBeGreaterThan(0);
  });

  it('when the person signs in after failures, then the account count starts over and the address count stays', async () => {
    const attempt = freshAttempt();
    for (let failure = 0; failure < 3; failure += 1) await recordSignInFailure(redis, settings, attempt);
    await recordSignInSuccess(redis, settings, attempt);
    expect(await readSignInThrottleState(redis, settings, attempt)).toMatchObject({ accountFailures: 0, addressFailures: 3 });
  });
});

describe('address throttling', () => {
  it('when one address fails 30 times across many identifiers, then it is refused for any identifier, and other addresses are not', async () => {
    const { address } = freshAttempt();
    await Promise.all(Array.from({ length: 30 }, () => recordSignInFailure(redis, settings, { identifier: `${randomUUID()}@example.com`, address })));
    const decision = await checkSignInAllowed(redis, settings, { identifier: `${randomUUID()}@example.com`, address });
    expect(decision).toMatchObject({ allowed: false, reason: 'address_throttled' });
    expect(await checkSignInAllowed(redis, settings, freshAttempt())).toEqual({ allowed: true });
  });

  it('when failures come from different addresses in one IPv6 /64, then they count together', async () => {
    const prefix = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:1`;
    await recordSignInFailure(redis, settings, { identifier: `${randomUUID()}@example.com`, address: `${prefix}::a` });
    await recordSignInFailure(redis, settings, { identifier: `${randomUUID()}@example.com`, address: `${prefix}:ffff::b` });
    expect((await readSignInThrottleState(redis, settings, { identifier: 'x@example.com', address: `${prefix}::c` })).addressFailures).toBe(2);
  });
});

describe('what Redis holds', () => {
  it('when failures are counted, then no key names the identifier in clear', async () => {
    const attempt = freshAttempt();
    await recordSignInFailure(redis, settings, attempt);
    const keys = await keysUnderPrefix();
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.join('\n')).not.toContain(attempt.identifier);
    expect(keys.join('\n').toLowerCase()).not.toContain('example.com');
  });
});
