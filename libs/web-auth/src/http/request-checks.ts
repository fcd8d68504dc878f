const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a request changes state and so must carry the session's CSRF token (csrfTokenMatches). */
export function isStateChangingMethod(method: string): boolean {
  return !safeMethods.has(method.toUpperCase());
}

/**
 * A second CSRF defence beside the token: a state-changing request whose browser says it came
 * from another site (Sec-Fetch-Site) or names another origin (Origin) is refused. Headers a
 * browser did not send are not held against the request; the token still decides.
 */
export function isSameOriginRequest(headers: { origin?: string; secFetchSite?: string }, consoleOrigin: string): boolean {
  if (headers.secFetchSite !== undefined && headers.secFetchSite !== 'same-origin') return false;
  if (headers.origin !== undefined && headers.origin !== consoleOrigin) return false;
  return true;
}
