export interface ConsoleSecurityHeaderOptions {
  /**
   * A per-response nonce for the page's own inline bootstrap script, if it has one (base64). Vite's
   * production build needs none: its scripts are files served from 'self'.
   */
  scriptNonce?: string;
  /** Where browsers report CSP violations (a same-origin path such as `/api/csp-reports`). */
  reportUri?: string;
  /**
   * `require-trusted-types-for 'script'`: the browser refuses strings in DOM sinks such as
   * innerHTML, so even a React `dangerouslySetInnerHTML` cannot run typed text. On by default.
   */
  trustedTypes?: boolean;
  /** Leave out `Cache-Control: no-store` (for content-hashed static assets only). */
  cacheable?: boolean;
}

const nonceShape = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;

/**
 * The Content-Security-Policy of a console page: everything from the console's own origin,
 * scripts never inline (unless they carry this response's nonce) and never eval'd, no plugins, no
 * <base> tag, forms post only to the console, and no other site may frame it. Images also allow
 * data: URLs (the TOTP enrolment's QR code); an image cannot run script.
 */
export function consoleContentSecurityPolicy(options: ConsoleSecurityHeaderOptions = {}): string {
  if (options.scriptNonce !== undefined && !nonceShape.test(options.scriptNonce)) throw new Error('A CSP nonce must be base64 of at least 12 bytes');
  if (options.reportUri !== undefined && !/^[\x21-\x2b\x2d-\x3a\x3c-\x7e]+$/.test(options.reportUri)) throw new Error('A CSP report URI must be one printable token without ; or ,');
  const scriptSources = ["'self'", ...(options.scriptNonce === undefined ? [] : [`'nonce-${options.scriptNonce}'`])];
  const directives = [
    "default-src 'self'",
    `script-src ${scriptSources.join(' ')}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.trustedTypes === false ? [] : ["require-trusted-types-for 'script'"]),
    'upgrade-insecure-requests',
    ...(options.reportUri === undefined ? [] : [`report-uri ${options.reportUri}`]),
  ];
  return directives.join('; ');
}

/**
 * The headers every console response sends, pages and JSON alike. Passkeys need the WebAuthn
 * features on the console's own origin (Permissions-Policy `publickey-credentials-*=(self)`);
 * every other powerful feature is off.
 */
export function consoleSecurityHeaders(options: ConsoleSecurityHeaderOptions = {}): Record<string, string> {
  return {
    'Content-Security-Policy': consoleContentSecurityPolicy(options),
    // Two years and every subdomain: the consoles are HTTPS-only.
    'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    // For browsers that do not know frame-ancestors.
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': [
      'accelerometer=()',
      'camera=()',
      'display-capture=()',
      'geolocation=()',
      'gyroscope=()',
      'magnetometer=()',
      'microphone=()',
      'payment=()',
      'usb=()',
      'publickey-credentials-create=(self)',
      'publickey-credentials-get=(self)',
    ].join(', '),
    ...(options.cacheable === true ? {} : { 'Cache-Control': 'no-store' }),
  };
}
