import { bearerTokenOf } from '../../src/domain/bearer-header';

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
