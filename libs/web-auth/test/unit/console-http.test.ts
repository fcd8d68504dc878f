import {
  consoleContentSecurityPolicy,
  consoleSecurityHeaders,
  expiredHostCookie,
  hostCookie,
  isSameOriginRequest,
  isStateChangingMethod,
  readHostCookie,
} from '../../src';

function directivesOf(policy: string): Map<string, string> {
  return new Map(policy.split('; ').map((directive) => {
    const [name = '', ...values] = directive.split(' ');
    return [name, values.join(' ')];
  }));
}

describe('content security policy', () => {
  it('when the default policy is built, then every directive the consoles need is strict', () => {
    const directives = directivesOf(consoleContentSecurityPolicy());
    expect(directives.get('default-src')).toBe("'self'");
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('object-src')).toBe("'none'");
    expect(directives.get('base-uri')).toBe("'none'");
    expect(directives.get('form-action')).toBe("'self'");
    expect(directives.get('frame-ancestors')).toBe("'none'");
    expect(directives.get('require-trusted-types-for')).toBe("'script'");
  });

  it('when any policy is built, then no source allows inline script, eval or any host', () => {
    const policy = consoleContentSecurityPolicy({ scriptNonce: 'cmFuZG9tLW5vbmNlLTEyMzQ=', reportUri: '/api/csp-reports' });
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|unsafe-hashes|\*|https?:/);
    expect(directivesOf(policy).get('script-src')).toBe("'self' 'nonce-cmFuZG9tLW5vbmNlLTEyMzQ='");
    expect(directivesOf(policy).get('report-uri')).toBe('/api/csp-reports');
  });

  it('when a nonce or report URI could break out of its directive, then it is refused', () => {
    expect(() => consoleContentSecurityPolicy({ scriptNonce: "abc'; script-src *" })).toThrow('nonce');
    expect(() => consoleContentSecurityPolicy({ scriptNonce: 'c2hvcnQ=' })).toThrow('nonce');
    expect(() => consoleContentSecurityPolicy({ reportUri: '/r; script-src *' })).toThrow('report URI');
  });

  it('when trusted types are turned off, then only that directive goes', () => {
    const directives = directivesOf(consoleContentSecurityPolicy({ trustedTypes: false }));
    expect(directives.has('require-trusted-types-for')).toBe(false);
    expect(directives.get('script-src')).toBe("'self'");
  });
});

describe('console security headers', () => {
  // The values are written out here, not read from the code: they are what the test holds the code to.
  it.each([
    ['Strict-Transport-Security', 'max-age=63072000; includeSubDomains'],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'no-referrer'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    ['X-Frame-Options', 'DENY'],
    ['Cache-Control', 'no-store'],
  ])('when the headers are built, then %s is %s', (name, value) => {
    expect(consoleSecurityHeaders()[name]).toBe(value);
  });

  it('when the headers are built, then the CSP is the console policy and every powerful feature is off but passkeys', () => {
    const headers = consoleSecurityHeaders();
    expect(headers['Content-Security-Policy']).toBe(consoleContentSecurityPolicy());
    const features = headers['Permissions-Policy']?.split(', ') ?? [];
    expect(features).toEqual(expect.arrayContaining(['camera=()', 'microphone=()', 'geolocation=()', 'payment=()', 'publickey-credentials-get=(self)', 'publickey-credentials-create=(self)']));
  });

  it('when a response is a content-hashed asset, then Cache-Control is left to the caller', () => {
    expect(consoleSecurityHeaders({ cacheable: true })).not.toHaveProperty('Cache-Control');
  });
});

describe('host cookies', () => {
  it('when a session cookie is built, then it is __Host- prefixed, Path=/, Secure, HttpOnly, SameSite=Strict and has no Domain', () => {
    const cookie = hostCookie('session', 'abc_DEF-123');
    expect(cookie).toBe('__Host-session=abc_DEF-123; Path=/; Secure; HttpOnly; SameSite=Strict');
    expect(cookie).not.toMatch(/Domain=/i);
  });

  it('when a Max-Age is given, then it is appended; the expired form has Max-Age=0 and an empty value', () => {
    expect(hostCookie('session', 'v', { maxAgeSeconds: 28_800 })).toBe('__Host-session=v; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=28800');
    expect(expiredHostCookie('session')).toBe('__Host-session=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0');
  });

  it('when a name or value could inject attributes, then it is refused without echoing the value', () => {
    expect(() => hostCookie('session', 'abc; Domain=evil.example')).toThrow(/^A cookie value must contain only RFC 6265 cookie-octets$/);
    expect(() => hostCookie('ses sion', 'v')).toThrow('RFC 6265 token');
    expect(() => hostCookie('session', 'v', { maxAgeSeconds: -1 })).toThrow('Max-Age');
  });

  it('when a Cookie header is read, then only the __Host- cookie of that name is returned', () => {
    expect(readHostCookie('theme=dark; __Host-session=abc; session=planted', 'session')).toBe('abc');
    expect(readHostCookie('session=planted', 'session')).toBeUndefined();
    expect(readHostCookie('__Host-session=', 'session')).toBeUndefined();
    expect(readHostCookie(undefined, 'session')).toBeUndefined();
  });
});

describe('request checks', () => {
  it('when the method is GET, HEAD or OPTIONS, then it does not change state; others do', () => {
    expect(['GET', 'head', 'OPTIONS'].map(isStateChangingMethod)).toEqual([false, false, false]);
    expect(['POST', 'put', 'PATCH', 'DELETE'].map(isStateChangingMethod)).toEqual([true, true, true, true]);
  });

  it('when the browser says the request came from another site or origin, then it is not same-origin', () => {
    const origin = 'https://console.example';
    expect(isSameOriginRequest({ origin, secFetchSite: 'same-origin' }, origin)).toBe(true);
    expect(isSameOriginRequest({}, origin)).toBe(true);
    expect(isSameOriginRequest({ secFetchSite: 'cross-site' }, origin)).toBe(false);
    expect(isSameOriginRequest({ secFetchSite: 'same-site' }, origin)).toBe(false);
    expect(isSameOriginRequest({ origin: 'https://evil.example' }, origin)).toBe(false);
    expect(isSameOriginRequest({ origin: 'null' }, origin)).toBe(false);
  });
});
