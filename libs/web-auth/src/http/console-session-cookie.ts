import type { RequestHandler, Response } from 'express';
import { expiredHostCookie, hostCookie, readHostCookie } from './cookies';
import { consoleSecurityHeaders } from './security-headers';

/** Every answer of a console's API carries the strict headers (CSP, HSTS, no framing, no caching; decision 0061). */
export function consoleHeaders(): RequestHandler {
  const headers = consoleSecurityHeaders();
  return (_req, res, next) => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    next();
  };
}

/** A console's session cookie (`__Host-<name>`): set at sign-in, cleared at sign-out or when the session ended, read on every call. */
export interface SessionCookie {
  set(res: Response, sessionId: string): void;
  clear(res: Response): void;
  read(cookieHeader: string | undefined): string | undefined;
}

export function sessionCookie(name: string): SessionCookie {
  return {
    set: (res, sessionId) => void res.append('Set-Cookie', hostCookie(name, sessionId)),
    clear: (res) => void res.append('Set-Cookie', expiredHostCookie(name)),
    read: (cookieHeader) => readHostCookie(cookieHeader, name),
  };
}
