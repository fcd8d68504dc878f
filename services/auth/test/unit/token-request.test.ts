import { parseClientCredentials } from '../../src/domain/token-request';

const clientId = '3f2b8c1e-6a4d-4c1f-9b7e-2d5a8e9f0c11';

function codeOf(body: unknown): string | undefined {
  try {
    parseClientCredentials(body);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe('parseClientCredentials', () => {
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
    ['a missing client_secret', { client_id: clientId }],
    ['an empty client_secret', { client_id: clientId, client_secret: '' }],
    ['a non-string client_secret', { client_id: clientId, client_secret: { $ne: '' } }],
    ['an oversized client_secret', { client_id: clientId, client_secret: 'x'.repeat(257) }],
    ['a grant_type other than client_credentials', { client_id: clientId, client_secret: 'x', grant_type: 'password' }],
  ])('when the body has %s, then it is PKC_1001', (_label, body) => {
    expect(codeOf(body)).toBe('PKC_1001');
  });

  it('when grant_type is client_credentials, then it is accepted', () => {
    expect(codeOf({ client_id: clientId, client_secret: 'x', grant_type: 'client_credentials' })).toBeUndefined();
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
