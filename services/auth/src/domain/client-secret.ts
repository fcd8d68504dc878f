import { randomBytes } from 'node:crypto';
import { Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * Client secrets: 32 random bytes, shown once, stored only as an argon2id hash (OWASP's
 * recommended minimum: 19 MiB, 2 iterations, 1 lane).
 */
const argon2Options = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const clientSecretLengthMax = 256;

export function generateClientSecret(environment: string): string {
  // A recognisable prefix lets secret scanners find leaked secrets and tells which environment they belong to.
  return `pwsk_${environment}_${randomBytes(32).toString('base64url')}`;
}

export function hashClientSecret(secret: string): Promise<string> {
  return hash(secret, argon2Options);
}

/** Verifies in constant time (argon2's own comparison); a malformed stored hash counts as a mismatch. */
export async function clientSecretMatches(storedHash: string, offered: string): Promise<boolean> {
  try {
    return await verify(storedHash, offered);
  } catch {
    return false;
  }
}

let decoyHash: Promise<string> | undefined;

/**
 * A hash of a random secret, verified against when the client id is unknown, so that an unknown
 * client id costs the same time as a wrong secret and does not reveal which client ids exist.
 */
export function decoySecretHash(): Promise<string> {
  decoyHash ??= hashClientSecret(randomBytes(32).toString('base64url'));
  return decoyHash;
}
