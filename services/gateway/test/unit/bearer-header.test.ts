import { bearerChallengeFor, bearerTokenOf } from '../../src/domain/bearer-header';

describe('bearerTokenOf', () => {
  test.each([
    ['Bearer abc.def.ghi', 'abc.def.ghi'],
    ['bearer abc.def.ghi', 'abc.def.ghi'],
    ['Bearer   abc.def.ghi', 'abc.def.ghi'],
    ['Bearer abc-_~+/.def=', 'abc-_~+/.def='],
  ])('when the header is %j, then the token is %j', (header, token) => {
    expect(bearerTokenOf(header)).toBe(token);
  });

  test.each([[undefined], [''], ['Bearer'], ['Bearer '], ['Basic dXNlcjpwYXNz'], ['Token abc'], ['Bearer abc def'], ['Bearer abc,def']])(
    'when the header is %j, then there is no bearer token (PKC_1005)',
    (header) => {
      expect(bearerTokenOf(header)).toBeUndefined();
    },
  );
});

describe('bearerChallengeFor', () => {
  test.each([[undefined], ['Basic dXNlcjpwYXNz'], ['Token abc']])('when the header %j carries no bearer credentials, then the challenge has no error (RFC 6750 §3.1)', (header) => {
    expect(bearerChallengeFor('PKC_1005', header)).toBe('Bearer realm="partner-wallet-api"');
  });

  test.each([['Bearer'], ['Bearer '], ['Bearer abc def'], ['bearer abc,def']])('when the Bearer header %j is not one token, then the challenge says invalid_request', (header) => {
    expect(bearerChallengeFor('PKC_1005', header)).toMatch(/^Bearer realm="partner-wallet-api", error="invalid_request", error_description="[^"\\]+"$/);
  });

  test.each([['PKC_1004' as const], ['PKC_1003' as const]])('when the refusal is %s, then the challenge says invalid_token with a description', (code) => {
    expect(bearerChallengeFor(code, 'Bearer abc')).toMatch(/^Bearer realm="partner-wallet-api", error="invalid_token", error_description="[\x20-\x21\x23-\x5B\x5D-\x7E]+"$/);
  });
});
