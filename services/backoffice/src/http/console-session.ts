import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { appendAuditEntry } from '@pwa/audit';
import { ConsoleError } from '@pwa/errors';
import { consoleSecurityHeaders, csrfTokenMatches, expiredHostCookie, hostCookie, isSameOriginRequest, isStateChangingMethod, readHostCookie, readSession, type Session, type SessionStage } from '@pwa/web-auth';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import { findOperatorById } from '../store/operator-store';
import { originOf } from './console-request';

/** The session cookie's name (sent as `__Host-backoffice-session`). */
export const sessionCookieName = 'backoffice-session';
export const csrfHeaderName = 'x-csrf-token';

/** Every console answer carries the strict headers (CSP, HSTS, no framing, no caching; decision 0061). */
export function consoleHeaders(): RequestHandler {
  const headers = consoleSecurityHeaders();
  return (_req, res, next) => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    next();
  };
}

export function setSessionCookie(res: Response, sessionId: string): void {
  res.append('Set-Cookie', hostCookie(sessionCookieName, sessionId));
}

export function clearSessionCookie(res: Response): void {
  res.append('Set-Cookie', expiredHostCookie(sessionCookieName));
}

export function sessionIdOf(req: Request): string | undefined {
  return readHostCookie(req.get('cookie'), sessionCookieName);
}

interface SessionLocals {
  session: Session;
  sessionId: string;
}

/** The session a route found (requireSession ran before it). */
export function sessionOf(res: Response): SessionLocals {
  const found = (res.locals as { console?: SessionLocals }).console;
  if (!found) throw new Error('requireSession must run before this route');
  return found;
}

/**
 * Admits a request only with a live session at `stage`, and, for a state-changing method, the
 * session's CSRF token in X-CSRF-Token from the console's own origin. An ended session's cookie is
 * cleared. Refusals: CON_1004 (no session), CON_1005 (CSRF).
 */
export function requireSession(deps: PeopleDependencies, stage: SessionStage, consoleOrigin: string): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const sessionId = sessionIdOf(req);
    if (sessionId === undefined) {
      next(new ConsoleError('CON_1004'));
      return;
    }
    readSession(deps.redis, deps.sessions, sessionId, stage).then(
      (lookup) => {
        if (!lookup.found) {
          clearSessionCookie(res);
          next(new ConsoleError('CON_1004'));
          return;
        }
        if (isStateChangingMethod(req.method)) {
          const sameOrigin = isSameOriginRequest(headersOf(req), consoleOrigin);
          if (!sameOrigin || !csrfTokenMatches(lookup.session.csrfToken, req.get(csrfHeaderName))) {
            // A signed-in person's change refused as a possible cross-site request: audited, since a person is known.
            const reason = sameOrigin ? 'the CSRF token was missing or wrong' : 'the request came from another site';
            auditRefusedChange(deps, req, res, lookup.session.subjectId, reason).then(
              () => next(new ConsoleError('CON_1005')),
              (error: unknown) => next(error),
            );
            return;
          }
        }
        (res.locals as { console?: SessionLocals }).console = { session: lookup.session, sessionId };
        next();
      },
      (error: unknown) => next(error),
    );
  };
}

/** A state-changing call made before any session exists (sign-in, set-up) must still come from the console's own origin. */
export function requireSameOrigin(consoleOrigin: string): RequestHandler {
  return (req, _res, next) => {
    next(isSameOriginRequest(headersOf(req), consoleOrigin) ? undefined : new ConsoleError('CON_1005'));
  };
}

function headersOf(req: Request): { origin?: string; secFetchSite?: string } {
  const origin = req.get('origin');
  const secFetchSite = req.get('sec-fetch-site');
  return { ...(origin === undefined ? {} : { origin }), ...(secFetchSite === undefined ? {} : { secFetchSite }) };
}

async function auditRefusedChange(deps: PeopleDependencies, req: Request, res: Response, operatorId: string, reason: string): Promise<unknown> {
  const operator = await findOperatorById(deps.pool, operatorId);
  return appendAuditEntry(deps.pool, {
    actor: { kind: 'person', id: operatorId, displayName: operator?.displayName ?? 'unknown operator' },
    action: 'console.change_refused',
    target: { kind: 'endpoint', id: `${req.method} ${req.path}`.slice(0, 200) },
    outcome: 'refused',
    reason,
    ...originOf(req, res),
  });
}
