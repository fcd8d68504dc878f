/** The outcome of one window check (Redis's count, or this instance's while Redis is away). */
export interface WindowCount {
  allowed: boolean;
  limit: number;
  /** Requests counted in the window, including this one when it was allowed. */
  used: number;
  /** Milliseconds until the oldest counted request leaves the window (a slot frees up). */
  resetAfterMs: number;
}

/**
 * The rate-limit headers of draft-ietf-httpapi-ratelimit-headers (delta seconds), sent on every
 * answered request, and Retry-After when the request was refused. Seconds are rounded up so a
 * client that waits exactly that long is never refused again for the same reason.
 */
export function rateLimitHeaders(count: WindowCount): Record<string, string> {
  const resetSeconds = Math.max(1, Math.ceil(count.resetAfterMs / 1000));
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(count.limit),
    'RateLimit-Remaining': String(Math.max(0, count.limit - count.used)),
    'RateLimit-Reset': String(resetSeconds),
  };
  if (!count.allowed) headers['Retry-After'] = String(resetSeconds);
  return headers;
}
