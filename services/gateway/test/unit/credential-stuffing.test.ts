import { randomUUID } from 'node:crypto';
import { clientIdOfTokenRequest, decideClientLockout, isCredentialFailure, sourceBucketOf } from '../../src/domain/credential-stuffing';

describe('decideClientLockout', () => {
  test('when failures are below the maximum, then the client is not locked', () => {
    expect(decideClientLockout({ failureCount: 9, windowRemainingMs: 500_000, sourceIsTrusted: false }, 10)).toEqual({ locked: false });
  });

  test('when failures reach the maximum within the window, then the client is locked until the window ends', () => {
    expect(decideClientLockout({ failureCount: 10, windowRemainingMs: 299_001, sourceIsTrusted: false }, 10)).toEqual({ locked: true, retryAfterSeconds: 300 });
  });

  test('when the source obtained a token for this client before, then failures elsewhere do not lock it', () => {
    expect(decideClientLockout({ failureCount: 50, windowRemainingMs: 500_000, sourceIsTrusted: true }, 10)).toEqual({ locked: false });
  });

  test('when the window has ended, then the client is not locked', () => {
    expect(decideClientLockout({ failureCount: 10, windowRemainingMs: 0, sourceIsTrusted: false }, 10)).toEqual({ locked: false });
  });
});

describe('clientIdOfTokenRequest', () => {
  test('when the body names a UUID client_id, then it is returned in lower case', () => {
    const clientId = randomUUID();

    expect(clientIdOfTokenRequest({ client_id: clientId.toUpperCase(), client_secret: 'x' })).toBe(clientId);
  });

  test.each([[undefined], [null], ['text'], [{}], [{ client_id: 'abc' }], [{ client_id: 42 }]])('when the body is %j, then it names no client', (body) => {
    expect(clientIdOfTokenRequest(body)).toBeUndefined();
  });

  test('when Authorization: Basic names a UUID client id, then it is returned in lower case', () => {
    const clientId = randomUUID();

    expect(clientIdOfTokenRequest(undefined, basic(clientId.toUpperCase(), 'secret'))).toBe(clientId);
  });

  test('when the Basic client id is form-encoded with every punctuation escaped, then it is decoded', () => {
    const clientId = randomUUID();
    const escaped = clientId.replace(/-/g, '%2D');

    expect(clientIdOfTokenRequest({ grant_type: 'client_credentials' }, `Basic ${Buffer.from(`${escaped}:a+b%21`).toString('base64')}`)).toBe(clientId);
  });

  test('when the body repeats the Basic client id, then that client id is returned', () => {
    const clientId = randomUUID();

    expect(clientIdOfTokenRequest({ client_id: clientId.toUpperCase(), client_secret: 'secret' }, basic(clientId, 'secret'))).toBe(clientId);
  });

  test.each([
    ['the body names another client id', { client_id: randomUUID() }, basic(randomUUID(), 'secret')],
    ['the body names a client id that is not a UUID', { client_id: 'abc' }, basic(randomUUID(), 'secret')],
    ['the Basic client id is not a UUID', {}, basic('partner-1', 'secret')],
    ['the Basic value has no colon', {}, `Basic ${Buffer.from(randomUUID()).toString('base64')}`],
    ['the Basic client id has a broken percent-encoding', {}, `Basic ${Buffer.from('%E0%A4%A:secret').toString('base64')}`],
    ['the scheme is not Basic', { client_id: randomUUID() }, 'Bearer abc'],
    ['the header is oversized', {}, `Basic ${'A'.repeat(4096)}`],
  ])('when %s, then it names no client (auth refuses it as malformed, which is not counted)', (_case, body, header) => {
    expect(clientIdOfTokenRequest(body, header)).toBeUndefined();
  });
});

function basic(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

describe('isCredentialFailure', () => {
  test('when auth answers 401 PKC_1002, then it is a credential failure', () => {
    expect(isCredentialFailure(401, { success: false, code: 'PKC_1002', message: '' })).toBe(true);
  });

  test.each([
    [401, { code: 'PKC_1001' }],
    [403, { code: 'PKC_1006' }],
    [200, { access_token: 'x' }],
    [401, undefined],
    [503, { code: 'PKC_7003' }],
  ])('when auth answers %i %j, then it is not', (status, body) => {
    expect(isCredentialFailure(status, body)).toBe(false);
  });
});

describe('sourceBucketOf', () => {
  test.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:85a3:0:1:2:3:4', '2001:db8:85a3:0::/64'],
    ['2001:db8:85a3::9', '2001:db8:85a3:0::/64'],
    ['2001:0db8:85a3:0000:ffff::1', '2001:db8:85a3:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('when the address is %s, then its budget is shared by %s', (address, bucket) => {
    expect(sourceBucketOf(address)).toBe(bucket);
  });
});
