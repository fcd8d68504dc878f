import { Algorithm, hash, verify } from '@node-rs/argon2';
import { normalisePassword, passwordLengthMax } from './password-policy';

/**
 * argon2id with OWASP's 46 MiB configuration and two passes: at least as strong as the client
 * secrets' parameters (19 MiB, 2 passes; services/auth/src/domain/client-secret.ts) in both memory
 * and time. A person's password has far less entropy than a 32-byte client secret, so each guess
 * is made dearer. About 20 ms per hash on the reference machine.
 */
export const passwordHashParameters = { memoryCostKib: 47_104, timeCost: 2, parallelism: 1 } as const;

const argon2Options = {
  algorithm: Algorithm.Argon2id,
  memoryCost: passwordHashParameters.memoryCostKib,
  timeCost: passwordHashParameters.timeCost,
  parallelism: passwordHashParameters.parallelism,
} as const;

/**
 * The hash of a random password nobody knows, made with passwordHashParameters. Verifying against
 * it when an account does not exist costs the same time as a wrong password for one that does. It
 * is a constant rather than made at start so the first unknown account is not slower than the
 * rest; a unit test keeps its parameters equal to passwordHashParameters.
 */
export const decoyPasswordHash = '$argon2id$v=19$m=47104,t=2,p=1$4QS6LwO52d+kmTm4PHZZCg$HEq6r3NWpSEC7RHvVdMuWpSKyH76Vyp4XYuhzyaQchs';

/**
 * The argon2id hash (PHC string with its salt and parameters) of a password, after Unicode NFKC
 * normalisation so the same password typed on different keyboards matches. Check the policy first
 * (checkPasswordPolicy); a password over passwordLengthMax is refused here too, so no caller can
 * make the server hash a megabyte.
 */
export async function hashPassword(password: string): Promise<string> {
  const normalised = normalisePassword(password);
  if ([...normalised].length > passwordLengthMax) throw new Error(`A password must be at most ${passwordLengthMax} characters`);
  return hash(normalised, argon2Options);
}

/**
 * Whether the offered password matches the stored hash, compared in constant time by argon2. A
 * malformed stored hash or an over-long offer counts as a mismatch.
 */
export async function verifyPassword(storedHash: string, offered: string): Promise<boolean> {
  const normalised = normalisePassword(offered);
  if ([...normalised].length > passwordLengthMax) return false;
  try {
    return await verify(storedHash, normalised);
  } catch {
    return false;
  }
}

/**
 * The sign-in check for an identifier that may name no account: with no stored hash it verifies
 * against decoyPasswordHash and answers false, so the time taken does not tell whether the
 * account exists.
 */
export async function verifyPasswordOrDecoy(storedHash: string | undefined, offered: string): Promise<boolean> {
  if (storedHash === undefined) {
    await verifyPassword(decoyPasswordHash, offered);
    return false;
  }
  return verifyPassword(storedHash, offered);
}

/** The argon2 parameters a PHC string was made with, or undefined when it is not an argon2id hash. */
export function passwordHashParametersOf(storedHash: string): { memoryCostKib: number; timeCost: number; parallelism: number } | undefined {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(storedHash);
  if (match === null) return undefined;
  return { memoryCostKib: Number(match[1]), timeCost: Number(match[2]), parallelism: Number(match[3]) };
}

/**
 * Whether a stored hash was made with other parameters than today's, so the caller should rehash
 * the password it has just verified and store the new hash (parameters only ever grow).
 */
export function passwordHashNeedsUpgrade(storedHash: string): boolean {
  const parameters = passwordHashParametersOf(storedHash);
  if (parameters === undefined) return true;
  return (
    parameters.memoryCostKib !== passwordHashParameters.memoryCostKib ||
    parameters.timeCost !== passwordHashParameters.timeCost ||
    parameters.parallelism !== passwordHashParameters.parallelism
  );
}
