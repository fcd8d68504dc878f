import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { appendAuditEntry } from '@pwa/audit';
import { ConsoleError } from '@pwa/errors';
import { csrfTokenMatches, isSameOriginRequest, isStateChangingMethod, originOf, readSession, type Session, sessionCookie, type SessionStage } from '@pwa/web-auth';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import { findOperatorById } from '../store/operator-store';
import { auditPersonalTokenUse, personOfPersonalToken } from '../use-cases/personal-tokens';
import { auditUnidentifiedRefusal, type UnidentifiedRefusalReason } from './unidentified-refusal-audit';

/** The session cookie's name (sent as `__Host-backoffice-session`). */
export const sessionCookieName = 'backoffice-session';
export const csrfHeaderName = 'x-csrf-token';

export { consoleHeaders } from '@pwa/web-auth';

const cookie = sessionCookie(sessionCookieName);

export function setSessionCookie(res: Response, sessionId: string): void {
  cookie.set(res, sessionId);
}

export function clearSessionCookie(res: Response): void {
  cookie.clear(res);
}

export function sessionIdOf(req: Request): string | undefined {
  return cookie.read(req.get('cookie'));
}

interface SessionLocals {
  session: Session;
  /** The session's id; empty for a personal token's request (there is no session). */
  sessionId: string;
  /** How the person came: the console's session cookie, or a personal token (decision 0072). */
  via: { kind: 'session' } | { kind: 'personal-token'; tokenId: string };
}

/**
 * Routes a personal token never reaches: sign-in and the session itself, passkeys (a token cannot
 * plant a factor), and making tokens (a token cannot breed tokens). Set-up has no session at all
 * and refuses a bearer request in requireSameOrigin.
 */
const sessionOnlyRoutes: readonly { method?: string; pathPrefix: string }[] = [
  { pathPrefix: '/api/v1/session' },
  { pathPrefix: '/api/v1/passkeys' },
  { method: 'POST', pathPrefix: '/api/v1/personal-tokens' },
];

function isSessionOnly(req: Request): boolean {
  return sessionOnlyRoutes.some((route) => (route.method === undefined || route.method === req.method) && (req.path === route.pathPrefix || req.path.startsWith(`${route.pathPrefix}/`)));
}

const sessionOnlyMessage = 'A personal token cannot be used here (sign-in, passkeys, set-up, new tokens): sign in to the console';

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
    // A refused change by nobody known is audited too (capped per address: unidentified-refusal-audit.ts).
    const refuseUnidentified = (error: ConsoleError, reason: UnidentifiedRefusalReason): void => {
      if (!isStateChangingMethod(req.method)) {
        next(error);
        return;
      }
      auditUnidentifiedRefusal(deps, req, res, reason).then(
        () => next(error),
        (failure: unknown) => next(failure),
      );
    };
    const sessionId = sessionIdOf(req);
    if (req.get('authorization') !== undefined) {
      if (sessionId !== undefined) {
        next(new ConsoleError('CON_2001', 'Send either the session cookie or a personal token (Authorization: Bearer), not both'));
        return;
      }
      admitPersonalToken(deps, stage, req, res).then(
        (refusal) => (refusal === undefined ? next() : refuseUnidentified(refusal.error, refusal.reason)),
        (error: unknown) => next(error),
      );
      return;
    }
    if (sessionId === undefined) {
      refuseUnidentified(new ConsoleError('CON_1004'), 'no session');
      return;
    }
    readSession(deps.redis, deps.sessions, sessionId, stage).then(
      (lookup) => {
        if (!lookup.found) {
          clearSessionCookie(res);
          refuseUnidentified(new ConsoleError('CON_1004'), 'the session has ended');
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
        (res.locals as { console?: SessionLocals }).console = { session: lookup.session, sessionId, via: { kind: 'session' } };
        next();
      },
      (error: unknown) => next(error),
    );
  };
}

/**
 * Admits a request with `Authorization: Bearer pwabo_…` as the token's person (decision 0072): only
 * at the signed-in stage and outside the session-only routes. No CSRF check: no cookie is involved,
 * so a browser cannot send it on another site's behalf. Every refusal of the token itself is the
 * same CON_1004 (unknown, revoked, expired, person disabled); every admitted request is audited.
 * Resolves with the refusal to pass on, or undefined once admitted.
 */
async function admitPersonalToken(deps: PeopleDependencies, stage: SessionStage, req: Request, res: Response): Promise<{ error: ConsoleError; reason: UnidentifiedRefusalReason } | undefined> {
  if (stage !== 'signed_in' || isSessionOnly(req)) return { error: new ConsoleError('CON_1004', sessionOnlyMessage), reason: 'a personal token cannot be used here' };
  const unknownToken = { error: new ConsoleError('CON_1004'), reason: 'the personal token is unknown, revoked or expired' } as const;
  const [scheme, secret, ...rest] = (req.get('authorization') ?? '').trim().split(/\s+/);
  if (scheme?.toLowerCase() !== 'bearer' || secret === undefined || rest.length > 0) return unknownToken;
  const person = await personOfPersonalToken(deps, secret);
  if (!person) return unknownToken;
  const nowMs = Date.now();
  const session: Session = { subjectId: person.operatorId, stage: 'signed_in', csrfToken: '', issuedAtMs: nowMs, lastSeenAtMs: nowMs, expiresAtMs: person.expiresAt.getTime(), attributes: { method: 'personal-token' } };
  await auditPersonalTokenUse(deps, { operatorId: person.operatorId, tokenId: person.tokenId, endpoint: `${req.method} ${req.path}` }, originOf(req, res));
  (res.locals as { console?: SessionLocals }).console = { session, sessionId: '', via: { kind: 'personal-token', tokenId: person.tokenId } };
  return undefined;
}

/** A state-changing call made before any session exists (sign-in, set-up) must still come from the console's own origin; a personal token has no business there. Refusals are audited as unidentified. */
export function requireSameOrigin(deps: PeopleDependencies, consoleOrigin: string): RequestHandler {
  return (req, res, next) => {
    const refuse = (error: ConsoleError, reason: UnidentifiedRefusalReason): void => {
      auditUnidentifiedRefusal(deps, req, res, reason).then(
        () => next(error),
        (failure: unknown) => next(failure),
      );
    };
    if (req.get('authorization') !== undefined) {
      refuse(new ConsoleError('CON_1004', sessionOnlyMessage), 'a personal token cannot be used here');
      return;
    }
    if (isSameOriginRequest(headersOf(req), consoleOrigin)) {
      next();
      return;
    }
    refuse(new ConsoleError('CON_1005'), 'the request came from another site');
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
