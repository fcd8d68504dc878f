import { isDatabaseUnavailable } from '../../src/unavailable';

describe('which database errors mean the database is away', () => {
  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P03', 'the database system is starting up'],
    ['08006', 'connection failure'],
    ['53300', 'sorry, too many clients already'],
    ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'],
  ])('when the error has code %s, then it is the database being away', (code, message) => {
    expect(isDatabaseUnavailable(Object.assign(new Error(message), { code }))).toBe(true);
  });

  it.each(['Connection terminated unexpectedly', 'Connection terminated', 'timeout exceeded when trying to connect'])(
    'when node-postgres says "%s" without a code, then it is the database being away',
    (message) => {
      expect(isDatabaseUnavailable(new Error(message))).toBe(true);
    },
  );

  it.each([
    ['23505', 'duplicate key value violates unique constraint'],
    ['22P05', 'unsupported Unicode escape sequence'],
    ['57014', 'canceling statement due to statement timeout'],
  ])('when the error is of the statement (code %s), then it is not', (code, message) => {
    expect(isDatabaseUnavailable(Object.assign(new Error(message), { code }))).toBe(false);
  });

  it('when the value is not an error object, then it is not', () => {
    expect(isDatabaseUnavailable('Connection terminated')).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
