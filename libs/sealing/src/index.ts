import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Authenticated encryption (AES-256-GCM) of small secrets at rest and in transit between services:
 * webhook secrets travel sealed inside partner events, so only services holding the sealing key
 * can read them. The associated data binds a ciphertext to its owner (partner and secret id), so
 * it cannot be replayed onto another record. Layout: iv (12 bytes) | tag (16) | ciphertext.
 */
const ivLengthBytes = 12;
const tagLengthBytes = 16;
export const sealingKeyLengthBytes = 32;

export function parseSealingKey(base64: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== sealingKeyLengthBytes) throw new Error('A sealing key must be base64 of exactly 32 bytes');
  return key;
}

export function seal(plaintext: Buffer, key: Buffer, associatedData: string): Buffer {
  const iv = randomBytes(ivLengthBytes);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(associatedData));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
}

/** Throws when the key, the associated data or any byte of the sealed value is wrong. */
export function open(sealed: Buffer, key: Buffer, associatedData: string): Buffer {
  if (sealed.length < ivLengthBytes + tagLengthBytes) throw new Error('Sealed value too short');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, ivLengthBytes));
  decipher.setAAD(Buffer.from(associatedData));
  decipher.setAuthTag(sealed.subarray(ivLengthBytes, ivLengthBytes + tagLengthBytes));
  return Buffer.concat([decipher.update(sealed.subarray(ivLengthBytes + tagLengthBytes)), decipher.final()]);
}

export function sealToBase64(plaintext: string, key: Buffer, associatedData: string): string {
  return seal(Buffer.from(plaintext, 'utf8'), key, associatedData).toString('base64');
}

export function openFromBase64(sealedBase64: string, key: Buffer, associatedData: string): string {
  return open(Buffer.from(sealedBase64, 'base64'), key, associatedData).toString('utf8');
}
