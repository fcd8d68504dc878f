import { unreadableBodyMessageOf } from '../../src';

describe('the message for a body that could not be read', () => {
  it("when body-parser could not parse the JSON, then the message says so and never repeats body-parser's own text", () => {
    const error = Object.assign(new SyntaxError('Unexpected token s in JSON at position 14: {"client_secret":"s'), { type: 'entity.parse.failed', status: 400 });
    expect(unreadableBodyMessageOf(error)).toBe('Request body is not valid JSON');
  });

  it('when a shared body rule refused the body, then its partner-facing message is kept', () => {
    const error = Object.assign(new Error('Content-Type must be application/json'), { name: 'BodyRefusal', type: 'content.type.unsupported', status: 400 });
    expect(unreadableBodyMessageOf(error)).toBe('Content-Type must be application/json');
  });

  it('when a 4xx body error has a type nobody described, then the message is a generic one', () => {
    expect(unreadableBodyMessageOf(Object.assign(new Error('secret inside'), { type: 'something.new', status: 400 }))).toBe('Request body could not be read');
  });

  it('when the error is not about the body, then there is no message', () => {
    expect(unreadableBodyMessageOf(new Error('database down'))).toBeUndefined();
    expect(unreadableBodyMessageOf(Object.assign(new Error('x'), { type: 'entity.parse.failed', status: 500 }))).toBeUndefined();
  });
});
