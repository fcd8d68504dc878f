import type { Redis } from 'ioredis';
import type { ClientLockoutState } from '../domain/credential-stuffing';
import { RedisScript } from '@pwa/redis';

/** KEYS[1] failure counter of a client_id; KEYS[2] "this source got a token for it" marker. */
const readLockoutLua = `
local failures = tonumber(redis.call('GET', KEYS[1]) or '0')
local remainingMs = redis.call('PTTL', KEYS[1])
local trusted = redis.call('EXISTS', KEYS[2])
return { failures, remainingMs, trusted }
`;

/** The window is fixed at the first failure (EXPIRE only then), so later failures never extend it. */
const recordFailureLua = `
local failures = redis.call('INCR', KEYS[1])
if failures == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return failures
`;

const readLockoutScript = new RedisScript(readLockoutLua);
const recordFailureScript = new RedisScript(recordFailureLua);

export interface TokenEndpointKeys {
  failures: string;
  trustedSource: string;
}

export async function readClientLockout(redis: Redis, keys: TokenEndpointKeys): Promise<ClientLockoutState> {
  const reply = await readLockoutScript.run(redis, [keys.failures, keys.trustedSource], []);
  if (!Array.isArray(reply) || reply.length !== 3) throw new Error('unexpected reply from the lockout script');
  const [failureCount, remainingMs, trusted] = reply.map(Number) as [number, number, number];
  return { failureCount, windowRemainingMs: Math.max(0, remainingMs), sourceIsTrusted: trusted === 1 };
}

export async function recordCredentialFailure(redis: Redis, keys: TokenEndpointKeys, windowSeconds: number): Promise<void> {
  await recordFailureScript.run(redis, [keys.failures], [windowSeconds]);
}

/** A source that proved it holds the secret is trusted for a while, and the failure count starts over. */
export async function recordCredentialSuccess(redis: Redis, keys: TokenEndpointKeys, trustSeconds: number): Promise<void> {
  await redis.multi().del(keys.failures).set(keys.trustedSource, '1', 'EX', trustSeconds).exec();
}
