import { addressBucketOf, checkSignInThrottlePolicy, decideSignInAttempt, defaultSignInThrottlePolicy, normaliseSignInIdentifier } from '../../src';

const quiet = { accountFailures: 0, accountLockRemainingMs: 0, addressFailures: 0, addressWindowRemainingMs: 0 };

describe('sign-in throttle decision', () => {
  it('when nothing has failed, then the attempt is allowed', () => {
    expect(decideSignInAttempt(quiet, defaultSignInThrottlePolicy)).toEqual({ allowed: true });
  });

  it('when the account is locked, then the attempt is refused with the lock’s remaining seconds, rounded up', () => {
    expect(decideSignInAttempt({ ...quiet, accountFailures: 5, accountLockRemainingMs: 61_001 }, defaultSignInThrottlePolicy)).toEqual({
      allowed: false,
      reason: 'account_locked',
      retryAfterSeconds: 62,
    });
  });

  it('when an account has failures below the maximum and no lock, then the attempt is allowed', () => {
    expect(decideSignInAttempt({ ...quiet, accountFailures: 4 }, defaultSignInThrottlePolicy)).toEqual({ allowed: true });
  });

  it('when an address reached its maximum within the window, then it is refused until the window ends', () => {
    const state = { ...quiet, addressFailures: 50, addressWindowRemainingMs: 300 };
    expect(decideSignInAttempt(state, defaultSignInThrottlePolicy)).toEqual({ allowed: false, reason: 'address_throttled', retryAfterSeconds: 1 });
    expect(decideSignInAttempt({ ...state, addressFailures: 49 }, defaultSignInThrottlePolicy)).toEqual({ allowed: true });
  });

  it('when a policy value is not a positive whole number, then the policy is refused naming it', () => {
    expect(() => checkSignInThrottlePolicy({ ...defaultSignInThrottlePolicy, accountLockMs: 0 })).toThrow('accountLockMs');
    expect(() => checkSignInThrottlePolicy(defaultSignInThrottlePolicy)).not.toThrow();
  });
});

describe('what failures count under', () => {
  it('when identifiers differ only in case, spaces or Unicode form, then they count as one', () => {
    expect(normaliseSignInIdentifier('  Ann@Example.COM ')).toBe('ann@example.com');
    expect(normaliseSignInIdentifier('ａnn@example.com')).toBe('ann@example.com');
  });

  it('when addresses are IPv4, IPv4-mapped or in one IPv6 /64, then they share the bucket as the gateway’s do', () => {
    expect(addressBucketOf('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucketOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucketOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressBucketOf('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressBucketOf('2001:db8:1:3::1')).not.toBe(addressBucketOf('2001:db8:1:2::1'));
  });
});
