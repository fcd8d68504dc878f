import { createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import { signingKeyIdOf, verifyAccessToken, type TokenExpectations } from '../../src/domain/access-token';
import { claimsFor, createTestSigner } from '../support/signing';

const issuer = 'https://auth.sandbox.partner-wallet.example';
const audience = 'partner-wallet-api:sandbox';
const nowSeconds = 1_800_000_000;
const expectations: TokenExpectations = { issuer, audience, nowSeconds, clockToleranceSeconds: 0 };
const signer = createTestSigner('key-a');
const partnerId = randomUUID();
const clientId = randomUUID();
const claims = claimsFor({ partnerId, clientId, issuer, audience, nowSeconds: nowSeconds - 10 });

function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('signingKeyIdOf', () => {
  test('when the token is an ES256 JWT with a kid, then the kid is read', () => {
    expect(signingKeyIdOf(signer.sign(claims))).toBe('key-a');
  });

  test.each([
    ['not a JWT', 'abc'],
    ['two parts', 'abc.def'],
    ['four parts', 'a.b.c.d'],
    ['an empty signature', `${encode({ alg: 'ES256', kid: 'key-a' })}.${encode(claims)}.`],
    ['alg none', `${encode({ alg: 'none', kid: 'key-a' })}.${encode(claims)}.c2ln`],
    ['alg HS256', `${encode({ alg: 'HS256', kid: 'key-a' })}.${encode(claims)}.c2ln`],
    ['no kid', `${encode({ alg: 'ES256' })}.${encode(claims)}.c2ln`],
    ['a header that is not JSON', `bm90LWpzb24.${encode(claims)}.c2ln`],
  ])('when the token has %s, then there is no key id', (_case, token) => {
    expect(signingKeyIdOf(token)).toBeUndefined();
  });
});

describe('verifyAccessToken', () => {
  test('when the token is ours, current, for this issuer and audience, then its claims are returned', () => {
    expect(verifyAccessToken(signer.sign(claims), signer.publicKey, expectations)).toEqual({
      ok: true,
      claims: { partnerId, clientId, expiresAtSeconds: claims.exp },
    });
  });

  test('when the token has expired, then it is PKC_1003', () => {
    const expired = signer.sign({ ...claims, exp: nowSeconds - 1 });

    expect(verifyAccessToken(expired, signer.publicKey, expectations)).toMatchObject({ ok: false, code: 'PKC_1003' });
  });

  test('when the token expired within the clock tolerance, then it is still accepted', () => {
    const justExpired = signer.sign({ ...claims, exp: nowSeconds - 2 });

    expect(verifyAccessToken(justExpired, signer.publicKey, { ...expectations, clockToleranceSeconds: 5 })).toMatchObject({ ok: true });
  });

  test('when an expired token is also forged, then it is PKC_1004, not PKC_1003', () => {
    const forger = createTestSigner('key-a');
    const forgedExpired = forger.sign({ ...claims, exp: nowSeconds - 100 });

    expect(verifyAccessToken(forgedExpired, signer.publicKey, expectations)).toMatchObject({ ok: false, code: 'PKC_1004' });
  });

  test('when an expired token names another issuer, then it is PKC_1004 (it is not ours to call expired)', () => {
    const elsewhere = signer.sign({ ...claims, iss: 'https://auth.production.partner-wallet.example', exp: nowSeconds - 100 });

    expect(verifyAccessToken(elsewhere, signer.publicKey, expectations)).toMatchObject({ ok: false, code: 'PKC_1004' });
  });

  test.each([
    ['another issuer', { iss: 'https://auth.production.partner-wallet.example' }],
    ['another audience', { aud: 'partner-wallet-api:production' }],
    ['no subject', { sub: undefined }],
    ['a subject that is not a UUID', { sub: 'partner-1' }],
    ['no client id', { cid: undefined }],
    ['no expiry', { exp: undefined }],
    ['a not-before in the future', { nbf: nowSeconds + 60 }],
  ])('when the token has %s, then it is PKC_1004', (_case, changes) => {
    const token = signer.sign({ ...claims, ...changes });

    expect(verifyAccessToken(token, signer.publicKey, expectations)).toMatchObject({ ok: false, code: 'PKC_1004' });
  });

  test('when the payload was changed after signing, then it is PKC_1004', () => {
    const [header, , signature] = signer.sign(claims).split('.');
    const tampered = `${header}.${encode({ ...claims, sub: randomUUID() })}.${signature}`;

    expect(verifyAccessToken(tampered, signer.publicKey, expectations)).toMatchObject({ ok: false, code: 'PKC_1004' });
  });

  test('when the token is signed by another key, then it is PKC_1004', () => {
    expect(verifyAccessToken(createTestSigner('key-a').sign(claims), signer.publicKey, expectations)).toMatchObject({ ok: false, code: 'PKC_1004' });
  });

  test('when the token claims alg none, then it is PKC_1004', () => {
    const unsigned = `${encode({ alg: 'none', kid: 'key-a' })}.${encode(claims)}.`;

    expect(verifyAccessToken(unsigned, signer.publicKey, expectations)).toMatchObject({ ok: false, code: 'PKC_1004' });
  });

  test('when the token is HS256 keyed with the public key, then it is PKC_1004', () => {
    const publicPem = signer.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const input = `${encode({ alg: 'HS256', kid: 'key-a' })}.${encode(claims)}`;
    const forged = `${input}.${createHmac('sha256', publicPem).update(input).digest('base64url')}`;

    expect(verifyAccessToken(forged, signer.publicKey, expectations)).toMatchObject({ ok: false, code: 'PKC_1004' });
  });

  test('when the token is ES384 or signed with an RSA key, then it is PKC_1004', () => {
    const { publicKey: rsaPublicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

    expect(verifyAccessToken(signer.sign(claims), rsaPublicKey, expectations)).toMatchObject({ ok: false, code: 'PKC_1004' });
    expect(verifyAccessToken(signer.sign(claims, { alg: 'ES384' }), signer.publicKey, expectations)).toMatchObject({ ok: false, code: 'PKC_1004' });
  });
});
