import { randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { createPublicKey } from 'node:crypto';
import { decryptPrivateKey, encryptPrivateKey, generateSigningKey } from '../../src/domain/signing-key';
import { clientSecretMatches, decoySecretHash, generateClientSecret, hashClientSecret } from '../../src/domain/client-secret';

describe('signing keys', () => {
  it('when a key is sealed and opened with the same encryption key, then it signs tokens its JWK verifies', () => {
    const key = generateSigningKey();
    const encryptionKey = randomBytes(32);
    const opened = decryptPrivateKey(encryptPrivateKey(key.privateKey, key.kid, encryptionKey), key.kid, encryptionKey);
    const token = jwt.sign({ sub: 'p' }, opened, { algorithm: 'ES256', keyid: key.kid });
    const publicKey = createPublicKey({ key: key.jwk, format: 'jwk' });
    expect(jwt.verify(token, publicKey, { algorithms: ['ES256'] })).toMatchObject({ sub: 'p' });
    expect(key.jwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: key.kid });
    expect(key.jwk).not.toHaveProperty('d');
  });

  it('when the sealed key is opened with another encryption key or under another kid, then it fails', () => {
    const key = generateSigningKey();
    const encryptionKey = randomBytes(32);
    const sealed = encryptPrivateKey(key.privateKey, key.kid, encryptionKey);
    expect(() => decryptPrivateKey(sealed, key.kid, randomBytes(32))).toThrow();
    expect(() => decryptPrivateKey(sealed, 'another-kid', encryptionKey)).toThrow();
  });

  it('when two keys are generated, then their kids differ', () => {
    expect(generateSigningKey().kid).not.toBe(generateSigningKey().kid);
  });
});

describe('client secrets', () => {
  it('when a secret is hashed, then only that secret matches and the hash is argon2id', async () => {
    const secret = generateClientSecret('sandbox');
    expect(secret).toMatch(/^pwsk_sandbox_[A-Za-z0-9_-]{43}$/);
    const hash = await hashClientSecret(secret);
    expect(hash.startsWith('$argon2id$')).toBe(true);
    expect(hash).not.toContain(secret);
    await expect(clientSecretMatches(hash, secret)).resolves.toBe(true);
    await expect(clientSecretMatches(hash, `${secret}x`)).resolves.toBe(false);
  });

  it('when the stored hash is malformed, then nothing matches', async () => {
    await expect(clientSecretMatches('not-a-hash', 'anything')).resolves.toBe(false);
  });

  it('when the decoy hash is requested twice, then it is the same argon2id hash', async () => {
    const first = await decoySecretHash();
    expect(await decoySecretHash()).toBe(first);
    expect(first.startsWith('$argon2id$')).toBe(true);
  });
});
