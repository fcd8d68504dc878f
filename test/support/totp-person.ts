import { X509Certificate, createHash } from 'node:crypto';
import { totpCodeAt } from '@pwa/web-auth';

const totpStepMs = 30_000;

/** The TOTP step of now: the code a person enrolling right now types. */
export function currentTotpStep(): number {
  return Math.floor(Date.now() / totpStepMs);
}

export function totpCodeOfStep(secretBase32: string, step: number): string {
  return totpCodeAt(base32Bytes(secretBase32), step * totpStepMs);
}

/**
 * The codes a person's authenticator app gives, each never used before: the consoles accept each
 * 30 s step once and one step of drift either way, so up to three codes come at once, then the
 * next one waits for its step. `lastStep` is the step the person used last (the enrolment's).
 */
export function totpCodes(secretBase32: string, lastStep: number): () => Promise<string> {
  let last = lastStep;
  return async () => {
    const step = Math.max(last + 1, currentTotpStep() - 1);
    const waitMs = (step - 1) * totpStepMs - Date.now();
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs + 50));
    last = step;
    return totpCodeOfStep(secretBase32, step);
  };
}

/** The base64 SHA-256 of a certificate's SubjectPublicKeyInfo, as Chromium's --ignore-certificate-errors-spki-list takes it. */
export function spkiSha256Of(certificatePem: string): string {
  const spki = new X509Certificate(certificatePem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

/** RFC 4648 base32 (the TOTP secret as enrolment shows it) to its bytes. */
export function base32Bytes(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const character of text.replace(/[\s=]/g, '').toUpperCase()) {
    const index = alphabet.indexOf(character);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}
