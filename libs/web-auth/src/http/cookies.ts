/**
 * Cookies for the consoles carry the `__Host-` prefix: the browser accepts them only when Secure,
 * with Path=/ and without a Domain, so no sibling subdomain can set or overwrite them (cookie
 * tossing). HttpOnly keeps them from page scripts; SameSite=Strict keeps them off every request
 * another site starts.
 */
export interface HostCookieOptions {
  /** Omitted: a browser-session cookie (the server's idle and absolute timeouts still apply). */
  maxAgeSeconds?: number;
  /**
   * Strict unless given. Lax only for a cookie that must come back on a top-level navigation from
   * another site: the binding cookie of an OpenID Connect sign-in, which the identity provider's
   * redirect brings back to the callback. A session cookie stays Strict.
   */
  sameSite?: 'Strict' | 'Lax';
}

const hostPrefix = '__Host-';
/** RFC 6265 token characters. */
const cookieName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** RFC 6265 cookie-octet: no controls, whitespace, quote, comma, semicolon or backslash. */
const cookieValue = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;

/** The name on the wire: `__Host-` and the given name (for example `__Host-session`). */
export function hostCookieName(name: string): string {
  if (!cookieName.test(name)) throw new Error('A cookie name must be an RFC 6265 token');
  return `${hostPrefix}${name}`;
}

/** The Set-Cookie value of a `__Host-` cookie. The value is checked, never echoed in an error. */
export function hostCookie(name: string, value: string, options: HostCookieOptions = {}): string {
  if (!cookieValue.test(value)) throw new Error('A cookie value must contain only RFC 6265 cookie-octets');
  const parts = [`${hostCookieName(name)}=${value}`, 'Path=/', 'Secure', 'HttpOnly', `SameSite=${options.sameSite ?? 'Strict'}`];
  if (options.maxAgeSeconds !== undefined) {
    if (!Number.isSafeInteger(options.maxAgeSeconds) || options.maxAgeSeconds < 0) throw new Error('A cookie Max-Age must be a whole number of seconds');
    parts.push(`Max-Age=${options.maxAgeSeconds}`);
  }
  return parts.join('; ');
}

/** The Set-Cookie value that deletes a `__Host-` cookie (sign-out, a session that ended). */
export function expiredHostCookie(name: string, options: Pick<HostCookieOptions, 'sameSite'> = {}): string {
  return hostCookie(name, '', { ...options, maxAgeSeconds: 0 });
}

/** The value of the `__Host-<name>` cookie in a request's Cookie header, or undefined. */
export function readHostCookie(cookieHeader: string | undefined, name: string): string | undefined {
  if (cookieHeader === undefined) return undefined;
  const wanted = hostCookieName(name);
  for (const pair of cookieHeader.split(';')) {
    const equals = pair.indexOf('=');
    if (equals < 0) continue;
    if (pair.slice(0, equals).trim() !== wanted) continue;
    const value = pair.slice(equals + 1).trim();
    return value === '' ? undefined : value;
  }
  return undefined;
}
