import type { SecretSealer } from './secret-sealer';
import { generateTotpSecret, totpEnrolmentText, verifyTotpCode, type TotpEnrolmentText, type TotpVerification } from './totp';

export interface TotpEnrolment extends TotpEnrolmentText {
  /** What the service stores for the factor: the secret sealed, bound to `boundTo`. */
  sealedSecret: string;
}

export interface TotpEnrolmentRequest {
  /** The console's name as the authenticator app shows it, for example "Partner Wallet Back-office". */
  issuer: string;
  /** The person's sign-in identifier, usually the email. */
  accountName: string;
  /** Associated data binding the sealed secret to its owner, for example `operator:<id>:totp`. */
  boundTo: string;
  sealer: SecretSealer;
}

/**
 * A new TOTP factor: a random secret, the URI and base32 text to show once, and the sealed secret
 * to store. The factor is pending until the person proves it with a first code
 * (verifySealedTotpCode); only then does the service mark it active.
 */
export async function createTotpEnrolment(request: TotpEnrolmentRequest): Promise<TotpEnrolment> {
  const secret = generateTotpSecret();
  try {
    const text = totpEnrolmentText(secret, { issuer: request.issuer, accountName: request.accountName });
    return { ...text, sealedSecret: await request.sealer.seal(secret, request.boundTo) };
  } finally {
    secret.fill(0);
  }
}

export interface SealedTotpAttempt {
  sealedSecret: string;
  boundTo: string;
  sealer: SecretSealer;
  code: string;
  lastAcceptedStep: number | null;
  /** The clock; Date.now unless a test fixes it. */
  now?: () => number;
}

/** Opens the stored secret and checks the code as verifyTotpCode does (one use per step). */
export async function verifySealedTotpCode(attempt: SealedTotpAttempt): Promise<TotpVerification> {
  let secret: Buffer;
  try {
    secret = await attempt.sealer.open(attempt.sealedSecret, attempt.boundTo);
  } catch {
    // Neither the sealed value nor the associated data goes into the message.
    throw new Error('The TOTP secret could not be opened (wrong sealing key or associated data, or a damaged value)');
  }
  try {
    const now = attempt.now ?? Date.now;
    return verifyTotpCode(secret, { code: attempt.code, lastAcceptedStep: attempt.lastAcceptedStep, nowMs: now() });
  } finally {
    secret.fill(0);
  }
}
