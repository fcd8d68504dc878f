import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ConsoleError, PkcError } from '@pwa/errors';
import { requestIdOf } from '@pwa/http';
import { rateLimitHeaders } from '@pwa/redis';
import { csrfTokenMatches, isSameOriginRequest, isStateChangingMethod, originOf, readSession, type Session, sessionCookie, type SessionStage, unidentifiedRefusalRecording } from '@pwa/web-auth';
import { roleAllows, type DashboardAction } from '../domain/member-roles';
import { findMemberById, type Member } from '../store/member-store';
import { spendTotpCode } from '../use-cases/member-sign-in';
import { auditOf, personOf, unidentified, type PeopleDependencies } from '../use-cases/people-dependencies';

/** The session cookie's name (sent as `__Host-dashboard-session`). */
export const sessionCookieName = 'dashboard-session';
export const csrfHeaderName = 'x-csrf-token';

export { consoleHeaders } from '@pwa/web-auth';

const cookie = sessionCookie(sessionCookieName);

export function setSessionCookie(res: Response, sessionId: string): void {
  cookie.set(res, sessionId);
}

export function clearSessionCookie(res: Response): void {
  cookie.clear(res);
}

interface MemberLocals {
  session: Session;
  sessionId: string;
  /** The signed-in member (stage signed_in), read again on every request: a removed member or a changed role counts at once. */
  member: Member | undefined;
}

export function sessionOf(res: Response): MemberLocals {
  const found = (res.locals as { dashboard?: MemberLocals }).dashboard;
  if (!found) throw new Error('requireSession must run before this route');
  return found;
}

/** The signed-in member a route acts for (requireMember ran before it). */
export function memberOf(res: Response): Member {
  const { member } = sessionOf(res);
  if (!member) throw new Error('requireMember must run before this route');
  return member;
}

function headersOf(req: Request): { origin?: string; secFetchSite?: string } {
  const origin = req.get('origin');
  const secFetchSite = req.get('sec-fetch-site');
  return { ...(origin === undefined ? {} : { origin }), ...(secFetchSite === undefined ? {} : { secFetchSite }) };
}

/** A refused change by nobody known (no session, another site): audited without a partner, capped per address (libs/web-auth). */
function refuseUnidentified(deps: PeopleDependencies, req: Request, res: Response, next: NextFunction, error: ConsoleError, reason: string): void {
  if (!isStateChangingMethod(req.method)) {
    next(error);
    return;
  }
  const origin = originOf(req, res);
  unidentifiedRefusalRecording(deps.redis, deps.sessions.keyPrefix, origin.address)
    .then(async (recording) => {
      if (!recording.record) return;
      await auditOf(deps, origin, {
        actor: unidentified,
        action: 'console.change_refused',
        target: { kind: 'endpoint', id: `${req.method} ${req.path}`.slice(0, 200) },
        outcome: 'refused',
        reason: recording.note === undefined ? reason : `${reason}; ${recording.note}`,
      });
    })
    .then(
      () => next(error),
      (failure: unknown) => next(failure),
    );
}

/**
 * Admits a request only with a live session at `stage` and, for a state-changing method, the
 * session's CSRF token from the dashboard's own origin. CON_1004 (no session), CON_1005 (CSRF).
 */
export function requireSession(deps: PeopleDependencies, stage: SessionStage, consoleOrigin: string): RequestHandler {
  return (req, res, next) => {
    if (req.get('authorization') !== undefined) {
      refuseUnidentified(deps, req, res, next, new ConsoleError('CON_1004', 'The dashboard takes no Authorization header: sign in, or use the partner API with your client credentials'), 'an Authorization header was sent');
      return;
    }
    const sessionId = cookie.read(req.get('cookie'));
    if (sessionId === undefined) {
      refuseUnidentified(deps, req, res, next, new ConsoleError('CON_1004'), 'no session');
      return;
    }
    readSession(deps.redis, deps.sessions, sessionId, stage).then(
      async (lookup) => {
        if (!lookup.found) {
          clearSessionCookie(res);
          refuseUnidentified(deps, req, res, next, new ConsoleError('CON_1004'), 'the session has ended');
          return;
        }
        const member = stage === 'signed_in' ? await findMemberById(deps.pool, lookup.session.subjectId) : undefined;
        if (stage === 'signed_in' && member?.status !== 'active') {
          clearSessionCookie(res);
          refuseUnidentified(deps, req, res, next, new ConsoleError('CON_1004'), 'the member was removed');
          return;
        }
        if (isStateChangingMethod(req.method)) {
          const sameOrigin = isSameOriginRequest(headersOf(req), consoleOrigin);
          if (!sameOrigin || !csrfTokenMatches(lookup.session.csrfToken, req.get(csrfHeaderName))) {
            const reason = sameOrigin ? 'the CSRF token was missing or wrong' : 'the request came from another site';
            await auditOf(deps, originOf(req, res), {
              actor: member ? personOf(member) : unidentified,
              action: 'console.change_refused',
              target: { kind: 'endpoint', id: `${req.method} ${req.path}`.slice(0, 200) },
              partnerId: member?.partnerId ?? null,
              outcome: 'refused',
              reason,
            });
            next(new ConsoleError('CON_1005'));
            return;
          }
        }
        (res.locals as { dashboard?: MemberLocals }).dashboard = { session: lookup.session, sessionId, member };
        next();
      },
    ).catch((error: unknown) => next(error));
  };
}

/**
 * A signed-in member whose role allows `action` (checked on the server for every call); a refusal
 * is CON_3004, and a refused change is in the partner's audit log.
 */
export function requireMember(deps: PeopleDependencies, consoleOrigin: string, action: DashboardAction): RequestHandler[] {
  const roleCheck: RequestHandler = (req, res, next) => {
    const member = memberOf(res);
    if (roleAllows(member.role, action)) {
      next();
      return;
    }
    const refusal = new ConsoleError('CON_3004', `Your role (${member.role}) does not allow this action (${action.replaceAll('_', ' ')}): ask one of your admins`);
    if (!isStateChangingMethod(req.method)) {
      next(refusal);
      return;
    }
    auditOf(deps, originOf(req, res), { actor: personOf(member), action: 'console.change_refused', target: { kind: 'endpoint', id: `${req.method} ${req.path}`.slice(0, 200) }, partnerId: member.partnerId, outcome: 'refused', reason: `role ${member.role} may not ${action}` }).then(
      () => next(refusal),
      (error: unknown) => next(error),
    );
  };
  return [requireSession(deps, 'signed_in', consoleOrigin), roleCheck, partnerRateLimit(deps)];
}

/**
 * Every member request counts in its partner's window, at the partner's rate limit per minute as
 * on the API (decision 0074): the whole team shares it, so no one member's script or stuck tab
 * loads the services more than the partner's own integration may. Over the limit: 429 PKC_7001
 * with Retry-After; a refused change is in the partner's audit log.
 */
function partnerRateLimit(deps: PeopleDependencies): RequestHandler {
  return (req, res, next) => {
    const count = deps.countPartnerRequest;
    if (count === undefined) {
      next();
      return;
    }
    const member = memberOf(res);
    count(member.partnerId, requestIdOf(res))
      .then(async (window) => {
        const headers = rateLimitHeaders(window);
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
        if (window.allowed) return undefined;
        if (isStateChangingMethod(req.method)) {
          await auditOf(deps, originOf(req, res), { actor: personOf(member), action: 'console.change_refused', target: { kind: 'endpoint', id: `${req.method} ${req.path}`.slice(0, 200) }, partnerId: member.partnerId, outcome: 'refused', reason: `the partner's rate limit (${window.limit} requests a minute) was reached` });
        }
        return new PkcError('PKC_7001', `Your team made ${window.limit} requests in the last minute, your partner’s limit: wait ${headers['Retry-After'] ?? '60'} s and try again`, { headers });
      })
      .then(
        (refusal) => next(refusal),
        (error: unknown) => next(error),
      );
  };
}

/**
 * A fresh MFA check before an admin's change (credentials, webhook settings, members), as "sudo
 * mode" on the platforms partners know: a sign-in with its TOTP code completed within
 * deps.freshMfaMs, or a current TOTP code of the member in the body's `code` (spent here, each step
 * once). A code that is sent must be right. CON_1012 otherwise, audited. Runs after requireMember.
 */
export function requireFreshCode(deps: PeopleDependencies): RequestHandler {
  return (req, res, next) => {
    const { session } = sessionOf(res);
    const member = memberOf(res);
    const code = (req.body as { code?: unknown } | undefined)?.code;
    const signedInAtMs = session.expiresAtMs - deps.sessions.absoluteTimeoutMs;
    const recentSignIn = Date.now() - signedInAtMs <= deps.freshMfaMs;
    const check = code === undefined ? Promise.resolve(recentSignIn) : typeof code === 'string' && /^\d{6}$/.test(code) ? spendTotpCode(deps, member, code) : Promise.resolve(false);
    check
      .then(async (fresh) => {
        if (fresh) {
          next();
          return;
        }
        await auditOf(deps, originOf(req, res), { actor: personOf(member), action: 'console.change_refused', target: { kind: 'endpoint', id: `${req.method} ${req.path}`.slice(0, 200) }, partnerId: member.partnerId, outcome: 'refused', reason: code === undefined ? 'no fresh MFA: the sign-in is older than the fresh window and no code was sent' : 'the fresh MFA code was wrong or used' });
        next(new ConsoleError('CON_1012'));
      })
      .catch((error: unknown) => next(error));
  };
}

/** A state-changing call made before any session exists (sign-in, an invitation) must still come from the dashboard's own origin. */
export function requireSameOrigin(deps: PeopleDependencies, consoleOrigin: string): RequestHandler {
  return (req, res, next) => {
    if (isSameOriginRequest(headersOf(req), consoleOrigin)) {
      next();
      return;
    }
    refuseUnidentified(deps, req, res, next, new ConsoleError('CON_1005'), 'the request came from another site');
  };
}
