import { hostCookie, passkeyRelyingPartyOf, signatureCounterOf, signatureCounterVerdict } from '../../src';

describe('passkey ceremonies, pure parts', () => {
  test('when the console has a public address, then its RP ID is the host name and its origin the origin', () => {
    expect(passkeyRelyingPartyOf('https://backoffice.internal.example/some/path')).toEqual({ rpId: 'backoffice.internal.example', origin: 'https://backoffice.internal.example' });
    expect(passkeyRelyingPartyOf('http://127.0.0.1:4107')).toEqual({ rpId: '127.0.0.1', origin: 'http://127.0.0.1:4107' });
  });

  test.each([
    [0, 0, 'not_kept'],
    [0, 1, 'advanced'],
    [5, 6, 'advanced'],
    [5, 5, 'regressed'],
    [5, 2, 'regressed'],
    [5, 0, 'regressed'],
  ] as const)('when the stored counter is %i and the assertion carries %i, then the verdict is %s', (stored, received, verdict) => {
    expect(signatureCounterVerdict(stored, received)).toBe(verdict);
  });

  test('when authenticator data is read, then the counter is bytes 33 to 36, big-endian, and short data has none', () => {
    const data = Buffer.concat([Buffer.alloc(32, 7), Buffer.from([0x05]), Buffer.from([0, 0, 1, 2])]);
    expect(signatureCounterOf(data.toString('base64url'))).toBe(258);
    expect(signatureCounterOf(Buffer.alloc(36).toString('base64url'))).toBeUndefined();
  });

  test('when a cookie must come back on a cross-site navigation, then it may be Lax; every other stays Strict', () => {
    expect(hostCookie('oidc', 'abc', { sameSite: 'Lax', maxAgeSeconds: 600 })).toBe('__Host-oidc=abc; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=600');
    expect(hostCookie('session', 'abc')).toBe('__Host-session=abc; Path=/; Secure; HttpOnly; SameSite=Strict');
  });
});
