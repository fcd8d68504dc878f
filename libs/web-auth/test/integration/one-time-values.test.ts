import { randomBytes } from 'node:crypto';
import { generateSessionId, keepPasskeyChallenge, putOneTimeValue, takeOneTimeValue, takePasskeyChallenge } from '../../src';
import { redisTestKeys } from '../support/redis-test-keys';

/**
 * One-time values (an OpenID Connect state's nonce and verifier, a WebAuthn challenge) against the
 * real Redis: taken once, only by the binding they were kept for, gone after their TTL, and stored
 * without the handle or the binding in clear.
 */
const { redis, keyPrefix, keysUnderPrefix } = redisTestKeys('one-time');
const settings = { keyPrefix };

describe('one-time values', () => {
  test('when a value is taken twice, then only the first take gets it', async () => {
    const handle = randomBytes(32).toString('base64url');
    await putOneTimeValue(redis, settings, { purpose: 'oidc', handle, boundTo: 'browser-a', value: 'kept', ttlMs: 60_000 });
    const [first, second] = await Promise.all([
      takeOneTimeValue(redis, settings, { purpose: 'oidc', handle, boundTo: 'browser-a' }),
      takeOneTimeValue(redis, settings, { purpose: 'oidc', handle, boundTo: 'browser-a' }),
    ]);
    expect([first, second].sort()).toEqual(['kept', undefined]);
  });

  test('when another binding or purpose asks, then it gets nothing, and a wrong binding spends the value', async () => {
    const handle = randomBytes(32).toString('base64url');
    await putOneTimeValue(redis, settings, { purpose: 'oidc', handle, boundTo: 'browser-a', value: 'kept', ttlMs: 60_000 });
    expect(await takeOneTimeValue(redis, settings, { purpose: 'passkey-registration', handle, boundTo: 'browser-a' })).toBeUndefined();
    expect(await takeOneTimeValue(redis, settings, { purpose: 'oidc', handle, boundTo: 'browser-b' })).toBeUndefined();
    expect(await takeOneTimeValue(redis, settings, { purpose: 'oidc', handle, boundTo: 'browser-a' })).toBeUndefined();
  });

  test('when the TTL passes, then the value is gone; and neither handle nor binding is stored in clear', async () => {
    const handle = randomBytes(32).toString('base64url');
    const boundTo = randomBytes(32).toString('base64url');
    await putOneTimeValue(redis, settings, { purpose: 'oidc', handle, boundTo, value: 'short', ttlMs: 60_000 });
    const keys = await keysUnderPrefix();
    const stored = await Promise.all(keys.map(async (key) => `${key} ${String(await redis.get(key))}`));
    expect(stored.join('\n')).not.toContain(handle);
    expect(stored.join('\n')).not.toContain(boundTo);
    await putOneTimeValue(redis, settings, { purpose: 'oidc', handle, boundTo, value: 'short', ttlMs: 1 });
    // Redis expires a 1 ms key on the next access after that millisecond; poll until it has (no time asserted).
    let left: string | undefined = 'short';
    while (left !== undefined) left = await takeOneTimeValue(redis, settings, { purpose: 'oidc', handle, boundTo });
    expect(left).toBeUndefined();
  });

  test('when a session asks for passkey options twice, then only the latest challenge is kept, for that session and ceremony, once', async () => {
    const sessionId = generateSessionId();
    await keepPasskeyChallenge(redis, settings, { ceremony: 'authentication', sessionId, challenge: 'first-challenge' });
    await keepPasskeyChallenge(redis, settings, { ceremony: 'authentication', sessionId, challenge: 'second-challenge' });
    expect(await takePasskeyChallenge(redis, settings, { ceremony: 'registration', sessionId })).toBeUndefined();
    expect(await takePasskeyChallenge(redis, settings, { ceremony: 'authentication', sessionId: generateSessionId() })).toBeUndefined();
    expect(await takePasskeyChallenge(redis, settings, { ceremony: 'authentication', sessionId })).toBe('second-challenge');
    expect(await takePasskeyChallenge(redis, settings, { ceremony: 'authentication', sessionId })).toBeUndefined();
  });
});
