import { createCipheriv, createDecipheriv, createHash, createPrivateKey, generateKeyPairSync, randomBytes, type JsonWebKey, type KeyObject } from 'node:crypto';

export const signingAlgorithm = 'ES256';

export interface PublicSigningKey {
  kid: string;
  jwk: JsonWebKey & { kid: string; alg: string; use: string };
}

export interface GeneratedSigningKey extends PublicSigningKey {
  privateKey: KeyObject;
}

/** A new P-256 key pair; its kid is the RFC 7638 thumbprint of the public key. */
export function generateSigningKey(): GeneratedSigningKey {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const exported = publicKey.export({ format: 'jwk' });
  const kid = jwkThumbprint(exported);
  return { kid, privateKey, jwk: { kty: exported.kty, crv: exported.crv, x: exported.x, y: exported.y, kid, alg: signingAlgorithm, use: 'sig' } };
}

function jwkThumbprint(jwk: JsonWebKey): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}

const ivLengthBytes = 12;
const tagLengthBytes = 16;

/**
 * Encrypts the private key (PKCS#8 DER) with AES-256-GCM under the environment's key-encryption key.
 * The kid is bound as associated data, so a ciphertext cannot be swapped onto another key's row.
 */
export function encryptPrivateKey(privateKey: KeyObject, kid: string, encryptionKey: Buffer): Buffer {
  const iv = randomBytes(ivLengthBytes);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
  cipher.setAAD(Buffer.from(kid));
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  const ciphertext = Buffer.concat([cipher.update(der), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
}

/**
 * The key-encryption keys a process holds: the current one encrypts and is tried first; the
 * previous one, during a rotation's overlap, only decrypts (docs/operations.md, "AUTH_KEY_ENCRYPTION_KEY").
 */
export interface KeyEncryptionKeys {
  current: Buffer;
  previous?: Buffer | undefined;
}

/** Decrypts with the current key, else the previous one; throws when neither opens the ciphertext. */
export function decryptPrivateKeyWithEither(sealed: Buffer, kid: string, keys: KeyEncryptionKeys): KeyObject {
  try {
    return decryptPrivateKey(sealed, kid, keys.current);
  } catch (error) {
    if (keys.previous === undefined) throw error;
    return decryptPrivateKey(sealed, kid, keys.previous);
  }
}

export function decryptPrivateKey(sealed: Buffer, kid: string, encryptionKey: Buffer): KeyObject {
  const iv = sealed.subarray(0, ivLengthBytes);
  const tag = sealed.subarray(ivLengthBytes, ivLengthBytes + tagLengthBytes);
  const ciphertext = sealed.subarray(ivLengthBytes + tagLengthBytes);
  const decipher = createDecipheriv('aes-256-gcm', encryptionKey, iv);
  decipher.setAAD(Buffer.from(kid));
  decipher.setAuthTag(tag);
  const der = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
}
