import { rateLimitHeaders } from '../../src/window-count';

describe('rateLimitHeaders', () => {
  test('when a request is admitted, then limit, remaining and reset are sent without Retry-After', () => {
    expect(rateLimitHeaders({ allowed: true, limit: 60, used: 1, resetAfterMs: 60_000 })).toEqual({
      'RateLimit-Limit': '60',
      'RateLimit-Remaining': '59',
      'RateLimit-Reset': '60',
    });
  });

  test('when a request is refused, then Retry-After equals the reset, rounded up to whole seconds', () => {
    expect(rateLimitHeaders({ allowed: false, limit: 60, used: 60, resetAfterMs: 12_001 })).toEqual({
      'RateLimit-Limit': '60',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '13',
      'Retry-After': '13',
    });
  });

  test('when the oldest request is about to leave the window, then the reset is at least one second', () => {
    expect(rateLimitHeaders({ allowed: false, limit: 5, used: 5, resetAfterMs: 0 })['Retry-After']).toBe('1');
  });
});
