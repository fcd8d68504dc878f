import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { addressBucketOf, RedisScript } from '@pwa/redis';
import { decideSignInAttempt, normaliseSignInIdentifier, type SignInThrottleDecision, type SignInThrottlePolicy, type SignInThrottleState } from './sign-in-throttle-policy';

/**
 * The counters of sign-in-throttle-policy.ts in Redis, under `<keyPrefix>sign-in:`:
 * `account-failures:<h>`, `account-lock:<h>` and `address-failures:<address bucket>`, where h is
 * the SHA-256 of the normalised identifier (so the store holds no email addresses). Each window is
 * fixed at its first failure; recording a failure is one script, so concurrent failures are
 * counted exactly and the lock is set once.
 */
export interface SignInThrottleSettings {
  /** The service's prefix, as for sessions (for example `${REDIS_KEY_PREFIX}backoffice:`). */
  keyPrefix: string;
  policy: SignInThrottlePolicy;
}

export interface SignInAttempt {
  /** What the person typed to name their account (the email), known or not. */
  identifier: string;
  /** The client's address as the service trusts it (behind a proxy: the proxy's forwarded address). */
  address: string;
}

interface SignInKeys {
  accountFailures: string;
  accountLock: string;
  addressFailures: string;
}

/** KEYS: account failures, account lock, address failures. */
const readLua = `
return {
  tonumber(redis.call('GET', KEYS[1]) or '0'),
  redis.call('PTTL', KEYS[2]),
  tonumber(redis.call('GET', KEYS[3]) or '0'),
  redis.call('PTTL', KEYS[3])
}
`;

/** KEYS: as readLua. ARGV: account window, address window, account failures max, lock length. */
const recordFailureLua = `
local accountFailures = redis.call('INCR', KEYS[1])
if accountFailures == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local addressFailures = redis.call('INCR', KEYS[3])
if addressFailures == 1 then redis.call('PEXPIRE', KEYS[3], ARGV[2]) end
if accountFailures >= tonumber(ARGV[3]) then redis.call('SET', KEYS[2], '1', 'PX', ARGV[4], 'NX') end
return { accountFailures, addressFailures }
`;

const readScript = new RedisScript(readLua);
const recordFailureScript = new RedisScript(recordFailureLua);

function keysOf(settings: SignInThrottleSettings, attempt: SignInAttempt): SignInKeys {
  const account = createHash('sha256').update(normaliseSignInIdentifier(attempt.identifier), 'utf8').digest('hex');
  const base = `${settings.keyPrefix}sign-in:`;
  return {
    accountFailures: `${base}account-failures:${account}`,
    accountLock: `${base}account-lock:${account}`,
    addressFailures: `${base}address-failures:${addressBucketOf(attempt.address)}`,
  };
}

function keyList(keys: SignInKeys): string[] {
  return [keys.accountFailures, keys.accountLock, keys.addressFailures];
}

export async function readSignInThrottleState(redis: Redis, settings: SignInThrottleSettings, attempt: SignInAttempt): Promise<SignInThrottleState> {
  const reply = await readScript.run(redis, keyList(keysOf(settings, attempt)), []);
  if (!Array.isArray(reply) || reply.length !== 4) throw new Error('Unexpected reply from the sign-in throttle script');
  const [accountFailures, lockTtlMs, addressFailures, addressTtlMs] = reply.map(Number) as [number, number, number, number];
  return { accountFailures, accountLockRemainingMs: Math.max(0, lockTtlMs), addressFailures, addressWindowRemainingMs: Math.max(0, addressTtlMs) };
}

/** Ask before checking a password or an MFA code; when refused, check nothing and answer with the generic refusal. */
export async function checkSignInAllowed(redis: Redis, settings: SignInThrottleSettings, attempt: SignInAttempt): Promise<SignInThrottleDecision> {
  return decideSignInAttempt(await readSignInThrottleState(redis, settings, attempt), settings.policy);
}

/** Record a wrong password (known account or not) or a wrong MFA code. */
export async function recordSignInFailure(redis: Redis, settings: SignInThrottleSettings, attempt: SignInAttempt): Promise<{ accountFailures: number; addressFailures: number }> {
  const { policy } = settings;
  const reply = await recordFailureScript.run(redis, keyList(keysOf(settings, attempt)), [policy.accountWindowMs, policy.addressWindowMs, policy.accountFailuresMax, policy.accountLockMs]);
  if (!Array.isArray(reply) || reply.length !== 2) throw new Error('Unexpected reply from the sign-in throttle script');
  const [accountFailures, addressFailures] = reply.map(Number) as [number, number];
  return { accountFailures, addressFailures };
}

/**
 * A complete sign-in (password and MFA code) clears the account's failure count; the address's
 * count stays, since one success does not make an address that tried many accounts innocent.
 */
export async function recordSignInSuccess(redis: Redis, settings: SignInThrottleSettings, attempt: SignInAttempt): Promise<void> {
  await redis.del(keysOf(settings, attempt).accountFailures);
}
