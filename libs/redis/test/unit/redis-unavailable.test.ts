import { isRedisUnavailable } from '../../src/redis-unavailable';

function errorWith(message: string, extra: { name?: string; code?: string } = {}): Error {
  const error = new Error(message);
  if (extra.name !== undefined) error.name = extra.name;
  if (extra.code !== undefined) Object.assign(error, { code: extra.code });
  return error;
}

describe('isRedisUnavailable', () => {
  test.each([
    ['the connection is down (no offline queue)', errorWith("Stream isn't writeable and enableOfflineQueue options is false")],
    ['the connection closed under the command', errorWith('Connection is closed.')],
    ['Redis did not answer in time', errorWith('Command timed out')],
    ['no retry was left', errorWith('Reached the max retries per request limit (which is 0).', { name: 'MaxRetriesPerRequestError' })],
    ['the primary was demoted', errorWith("READONLY You can't write against a read only replica.")],
    ['the server is loading its data', errorWith('LOADING Redis is loading the dataset in memory')],
    ['the socket was refused', errorWith('connect ECONNREFUSED 127.0.0.1:6379', { code: 'ECONNREFUSED' })],
  ])('when %s, then Redis counts as unavailable (503, retry later)', (_case, error) => {
    expect(isRedisUnavailable(error)).toBe(true);
  });

  test.each([
    ['a script error', errorWith('ERR Error running script (call to f_0123): @user_script:1: Script attempted to access nonexistent global variable')],
    ['a wrong type', errorWith('WRONGTYPE Operation against a key holding the wrong kind of value')],
    ['a programming error', new TypeError('cannot read properties of undefined')],
    ['not an error at all', 'Connection is closed.'],
  ])('when %s, then it is not an outage (500)', (_case, error) => {
    expect(isRedisUnavailable(error)).toBe(false);
  });
});
