import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * TOTP as RFC 6238 and every authenticator app implement it: HMAC-SHA1, 6 digits, 30-second
 * steps, and a 20-byte (160-bit) secret, the length RFC 4226 recommends.
 */
export const totpParameters = { algorithm: 'SHA1', digits: 6, periodSeconds: 30, secretLengthBytes: 20, windowSteps: 1 } as const;

export interface TotpEnrolmentText {
  /** The otpauth:// URI to show once as a QR code; it contains the secret. */
  otpauthUri: string;
  /** The secret in base32, for people who type it in instead of scanning. */
  secretBase32: string;
}

export type TotpVerification =
  | { accepted: true; /** Store it as the factor's last accepted step (see verifyTotpCode). */ step: number }
  | { accepted: false; reason: 'malformed_code' | 'wrong_code' | 'replayed_code' };

export function generateTotpSecret(): Buffer {
  return randomBytes(totpParameters.secretLengthBytes);
}

/** What the person's authenticator needs: issuer (the console's name) and label (their email). */
export function totpEnrolmentText(secret: Uint8Array, naming: { issuer: string; accountName: string }): TotpEnrolmentText {
  const totp = totpOf(secret, naming);
  return { otpauthUri: totp.toString(), secretBase32: totp.secret.base32 };
}

/**
 * Checks a code against the secret at nowMs, accepting the current step and one either side
 * (clock drift and typing time). A code is accepted once: a step at or before lastAcceptedStep is
 * refused as replayed, so a code seen over a shoulder or in a proxy log cannot be used again. On
 * acceptance the caller stores the returned step with a conditional write that only raises it
 * (`... SET totp_last_step = $step WHERE id = $id AND (totp_last_step IS NULL OR totp_last_step < $step)`)
 * and treats a write that changed nothing as a replay: two requests racing with one code then get
 * one success.
 */
export function verifyTotpCode(secret: Uint8Array, attempt: { code: string; lastAcceptedStep: number | null; nowMs: number }): TotpVerification {
  const code = attempt.code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(code)) return { accepted: false, reason: 'malformed_code' };
  const totp = totpOf(secret, { issuer: '', accountName: '' });
  const delta = totp.validate({ token: code, timestamp: attempt.nowMs, window: totpParameters.windowSteps });
  if (delta === null) return { accepted: false, reason: 'wrong_code' };
  const step = totp.counter({ timestamp: attempt.nowMs }) + delta;
  if (attempt.lastAcceptedStep !== null && step <= attempt.lastAcceptedStep) return { accepted: false, reason: 'replayed_code' };
  return { accepted: true, step };
}

/** The code an authenticator shows at nowMs; for tests and for the browser tests' sign-in. */
export function totpCodeAt(secret: Uint8Array, nowMs: number): string {
  return totpOf(secret, { issuer: '', accountName: '' }).generate({ timestamp: nowMs });
}

function totpOf(secret: Uint8Array, naming: { issuer: string; accountName: string }): TOTP {
  if (secret.length !== totpParameters.secretLengthBytes) throw new Error(`A TOTP secret must be ${totpParameters.secretLengthBytes} bytes`);
  // Copied into a buffer of its own: a Node Buffer may be a view into a larger shared pool.
  const bytes = Uint8Array.from(secret);
  return new TOTP({
    issuer: naming.issuer,
    label: naming.accountName,
    secret: new Secret({ buffer: bytes.buffer }),
    algorithm: totpParameters.algorithm,
    digits: totpParameters.digits,
    period: totpParameters.periodSeconds,
  });
}
