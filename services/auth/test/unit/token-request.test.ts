import { parseClientCredentials, tokenRefusal } from '../../src/domain/token-request';

const clientId = '3f2b8c1e-6a4d-4c1f-9b7e-2d5a8e9f0c11';
const clientSecret = 'pwsk_sandbox_Ab-9_x~y';

/** RFC 6749 §2.3.1: base64 of the form-urlencoded client id and secret, joined by a colon. */
function basic(id: string, secret: string, encode: (value: string) => string = encodeURIComponent): string {
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}

/** oauth4webapi's encoding: every character but letters and digits escaped, a space as "+". */
function strictFormEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[-_.!~*'()]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

function refusalOf(body: unknown, authorization?: string): { code?: string; error?: unknown; challenge?: string } | undefined {
  try {
    parseClientCredentials(body, authorization);
    return undefined;
  } catch (error) {
    const refusal = error as { code?: string; fields?: { error?: unknown }; headers?: Record<string, string> };
    return { code: refusal.code, error: refusal.fields?.error, challenge: refusal.headers?.['WWW-Authenticate'] };
  }
}

describe('parseClientCredentials from the body', () => {
  it('when both fields are well formed, then it returns them with the client id lower-cased', () => {
    expect(parseClientCredentials({ client_id: clientId.toUpperCase(), client_secret: 's3cret' })).toEqual({
      clientId,
      clientSecret: 's3cret',
    });
  });

  it.each([
    ['no body', undefined],
    ['an array body', [clientId, 'x']],
    ['a missing client_id', { client_secret: 'x' }],
    ['an empty client_id', { client_id: '', client_secret: 'x' }],
    ['a client_id that is not a UUID', { client_id: 'partner-1', client_secret: 'x' }],
    ['a numeric client_id', { client_id: 42, client_secret: 'x' }],
    ['a client_id given twice in a form', { client_id: [clientId, clientId], client_secret: 'x' }],
    ['a missing client_secret', { client_id: clientId }],
    ['an empty client_secret', { client_id: clientId, client_secret: '' }],
    ['a non-string client_secret', { client_id: clientId, client_secret: { $ne: '' } }],
    ['an oversized client_secret', { client_id: clientId, client_secret: 'x'.repeat(257) }],
    ['a grant_type given twice in a form', { client_id: clientId, client_secret: 'x', grant_type: ['client_credentials', 'password'] }],
  ])('when the body has %s, then it is PKC_1001 invalid_request with the Basic challenge', (_label, body) => {
    expect(refusalOf(body)).toEqual({ code: 'PKC_1001', error: 'invalid_request', challenge: 'Basic realm="partner-wallet-api"' });
  });

  it.each([[{}], [{ grant_type: 'client_credentials' }], [{ client_id: null, client_secret: '' }]])(
    'when the body %j carries no credentials and there is no Authorization header, then it is PKC_1001 invalid_client',
    (body) => {
      expect(refusalOf(body)).toEqual({ code: 'PKC_1001', error: 'invalid_client', challenge: 'Basic realm="partner-wallet-api"' });
    },
  );

  it.each([['password'], ['authorization_code'], ['']])('when grant_type is %j, then it is PKC_1001 unsupported_grant_type', (grantType) => {
    expect(refusalOf({ client_id: clientId, client_secret: 'x', grant_type: grantType })).toMatchObject({ code: 'PKC_1001', error: 'unsupported_grant_type' });
  });

  it('when grant_type is client_credentials and a scope is given, then the credentials are accepted and the scope ignored', () => {
    expect(parseClientCredentials({ client_id: clientId, client_secret: 'x', grant_type: 'client_credentials', scope: 'payments' })).toEqual({
      clientId,
      clientSecret: 'x',
    });
  });

  it('when the credentials are rejected, then the message does not repeat the secret', () => {
    try {
      parseClientCredentials({ client_id: 'nope', client_secret: 'very-secret-value' });
    } catch (error) {
      expect((error as Error).message).not.toContain('very-secret-value');
    }
    expect.assertions(1);
  });
});

describe('parseClientCredentials from Authorization: Basic', () => {
  it('when the header carries form-encoded credentials, then they are returned and no body is needed', () => {
    expect(parseClientCredentials(undefined, basic(clientId.toUpperCase(), clientSecret))).toEqual({ clientId, clientSecret });
  });

  it('when every punctuation character is percent-encoded and a space is "+", then the credentials decode to what was encoded', () => {
    const secretWithSpace = 'a b-c_d.e~f!g*h(i)j\'k:l';

    expect(parseClientCredentials({ grant_type: 'client_credentials' }, basic(clientId, secretWithSpace, strictFormEncode))).toEqual({
      clientId,
      clientSecret: secretWithSpace,
    });
  });

  it('when a client does not form-encode (a "loose" client), then a secret of the issued alphabet decodes the same', () => {
    const issuedSecret = 'pwsk_sandbox_q-3_ZkP0x9';

    expect(parseClientCredentials({}, basic(clientId, issuedSecret, (value) => value))).toEqual({ clientId, clientSecret: issuedSecret });
  });

  it('when the scheme is written in lower case, then it is accepted', () => {
    expect(parseClientCredentials({}, basic(clientId, clientSecret).replace('Basic', 'basic'))).toEqual({ clientId, clientSecret });
  });

  it('when the body repeats the same credentials, then they are accepted', () => {
    const body = { grant_type: 'client_credentials', client_id: clientId.toUpperCase(), client_secret: clientSecret };

    expect(parseClientCredentials(body, basic(clientId, clientSecret))).toEqual({ clientId, clientSecret });
  });

  it('when the body repeats only the client id, then the credentials are accepted', () => {
    expect(parseClientCredentials({ client_id: clientId }, basic(clientId, clientSecret))).toEqual({ clientId, clientSecret });
  });

  it.each([
    ['another client_secret', { client_id: clientId, client_secret: `${clientSecret}x` }],
    ['another client_id', { client_id: '9f2b8c1e-6a4d-4c1f-9b7e-2d5a8e9f0c11', client_secret: clientSecret }],
    ['a client_id that is not a UUID', { client_id: 'partner-1' }],
  ])('when the body carries %s than the header, then it is PKC_1001 invalid_request', (_label, body) => {
    expect(refusalOf(body, basic(clientId, clientSecret))).toEqual({ code: 'PKC_1001', error: 'invalid_request', challenge: 'Basic realm="partner-wallet-api"' });
  });

  it.each([
    ['no colon', `Basic ${Buffer.from(clientId).toString('base64')}`],
    ['characters outside base64', 'Basic abc$def'],
    ['nothing after the scheme', 'Basic'],
    ['a truncated base64 value', 'Basic YWJjZ'],
    ['bytes that are not UTF-8', `Basic ${Buffer.from([0xff, 0x3a, 0x61]).toString('base64')}`],
    ['a broken percent-encoding', `Basic ${Buffer.from(`${clientId}:%E0%A4%A`).toString('base64')}`],
    ['a client id that is not a UUID', basic('partner-1', clientSecret)],
    ['an empty secret', basic(clientId, '')],
    ['an oversized secret', basic(clientId, 'x'.repeat(257))],
    ['an oversized header', `Basic ${'A'.repeat(4096)}`],
  ])('when the Basic header has %s, then it is PKC_1001 invalid_request', (_label, header) => {
    expect(refusalOf({}, header)).toEqual({ code: 'PKC_1001', error: 'invalid_request', challenge: 'Basic realm="partner-wallet-api"' });
  });

  it.each([['Bearer abc.def.ghi'], ['Digest username="x"'], ['Basicabc']])('when the Authorization header is %j, then it is PKC_1001 invalid_client', (header) => {
    expect(refusalOf({ client_id: clientId, client_secret: clientSecret }, header)).toMatchObject({ code: 'PKC_1001', error: 'invalid_client' });
  });

  it('when a Basic header is refused, then the message repeats neither the header nor the secret', () => {
    const header = basic(clientId, 'very-secret-value');
    try {
      parseClientCredentials({ client_secret: 'other' }, header);
    } catch (error) {
      expect((error as Error).message).not.toContain('very-secret-value');
      expect((error as Error).message).not.toContain(header.slice(6));
    }
    expect.assertions(2);
  });
});

describe('tokenRefusal', () => {
  it('when the code answers 401, then the refusal carries the Basic challenge and the RFC 6749 error', () => {
    const refusal = tokenRefusal('PKC_1002', 'invalid_client');

    expect(refusal).toMatchObject({ code: 'PKC_1002', httpStatus: 401, fields: { error: 'invalid_client' } });
    expect(refusal.headers).toEqual({ 'WWW-Authenticate': 'Basic realm="partner-wallet-api"' });
  });

  it('when the code answers 403, then the refusal carries the error but no challenge', () => {
    const refusal = tokenRefusal('PKC_1006', 'unauthorized_client');

    expect(refusal).toMatchObject({ code: 'PKC_1006', httpStatus: 403, fields: { error: 'unauthorized_client' } });
    expect(refusal.headers).toEqual({});
  });
});
