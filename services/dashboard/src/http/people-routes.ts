import type { Express } from 'express';
import { z } from '@pwa/config';
import { ConsoleError } from '@pwa/errors';
import { originOf, parsedInput, passwordRuleMessages } from '@pwa/web-auth';
import { actionsOf } from '../domain/member-roles';
import { beginAcceptance, completeAcceptance } from '../use-cases/invitations';
import { secondFactorsOf } from '../use-cases/member-passkeys';
import { completeSignInWithTotp, signInWithPassword, signOut } from '../use-cases/member-sign-in';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import { clearSessionCookie, memberOf, requireSameOrigin, requireSession, sessionOf, setSessionCookie } from './member-session';

/** The dashboard API's paths for people: accepting an invitation, sign-in in two steps, who is signed in, sign-out. */
export const peoplePaths = {
  invitationBegin: '/api/v1/invitation/begin',
  invitationComplete: '/api/v1/invitation/complete',
  session: '/api/v1/session',
  sessionMfa: '/api/v1/session/mfa',
} as const;


const text = (max: number) => z.string().min(1, 'required').max(max, `at most ${max} characters`);

export function mountPeopleRoutes(app: Express, deps: PeopleDependencies, consoleOrigin: string): void {
  const sameOrigin = requireSameOrigin(deps, consoleOrigin);

  app.post(peoplePaths.invitationBegin, sameOrigin, async (req, res) => {
    const { token } = parsedInput(z.object({ token: text(200) }), req.body);
    const begun = await beginAcceptance(deps, token);
    if (begun.kind === 'refused') throw new ConsoleError('CON_1006', 'This invitation was used, replaced or has expired: ask your team’s admin for a new one');
    res.json({ success: true, data: { email: begun.email, displayName: begun.displayName, role: begun.role, otpauthUri: begun.otpauthUri, secretBase32: begun.secretBase32, enrolment: begun.sealedSecret } });
  });

  app.post(peoplePaths.invitationComplete, sameOrigin, async (req, res) => {
    const fields = parsedInput(z.object({ token: text(200), password: text(1_000), enrolment: text(1_000), code: text(16) }), req.body);
    const completed = await completeAcceptance(deps, { token: fields.token, password: fields.password, sealedSecret: fields.enrolment, code: fields.code }, originOf(req, res));
    if (completed.kind === 'activated') {
      res.status(201).json({ success: true, data: { memberId: completed.memberId, email: completed.email } });
      return;
    }
    switch (completed.reason) {
      case 'link-unusable':
        throw new ConsoleError('CON_1006', 'This invitation was used, replaced or has expired: ask your team’s admin for a new one');
      case 'password-policy':
        throw new ConsoleError('CON_1007', passwordRuleMessages[completed.failedRule]);
      case 'wrong-code':
        throw new ConsoleError('CON_1003');
      case 'enrolment-not-for-this-link':
        throw new ConsoleError('CON_1008', 'The enrolment does not belong to this invitation: open the invitation link again');
    }
  });

  app.post(peoplePaths.session, sameOrigin, async (req, res) => {
    const { email, password } = parsedInput(z.object({ email: text(256), password: text(1_000) }), req.body);
    const outcome = await signInWithPassword(deps, { email, password }, originOf(req, res));
    if (outcome.kind === 'refused') {
      if (outcome.reason === 'throttled') throw new ConsoleError('CON_1002', undefined, { headers: { 'Retry-After': String(outcome.retryAfterSeconds) } });
      throw new ConsoleError('CON_1001');
    }
    setSessionCookie(res, outcome.sessionId);
    res.status(202).json({ success: true, data: { stage: 'mfa_pending', csrfToken: outcome.csrfToken } });
  });

  app.post(peoplePaths.sessionMfa, requireSession(deps, 'mfa_pending', consoleOrigin), async (req, res) => {
    const { code } = parsedInput(z.object({ code: text(16) }), req.body);
    const outcome = await completeSignInWithTotp(deps, { sessionId: sessionOf(res).sessionId, code }, originOf(req, res));
    if (outcome.kind === 'refused') throw new ConsoleError(outcome.reason === 'wrong-code' ? 'CON_1003' : 'CON_1004');
    setSessionCookie(res, outcome.sessionId);
    res.json({ success: true, data: { stage: 'signed_in', csrfToken: outcome.csrfToken } });
  });

  app.get(peoplePaths.sessionMfa, requireSession(deps, 'mfa_pending', consoleOrigin), async (_req, res) => {
    const { session } = sessionOf(res);
    res.json({ success: true, data: { stage: 'mfa_pending', csrfToken: session.csrfToken, factors: await secondFactorsOf(deps, session.subjectId) } });
  });

  app.get(peoplePaths.session, requireSession(deps, 'signed_in', consoleOrigin), (_req, res) => {
    const { session } = sessionOf(res);
    const member = memberOf(res);
    res.json({
      success: true,
      data: {
        member: { memberId: member.memberId, partnerId: member.partnerId, email: member.email, displayName: member.displayName, role: member.role, allowedActions: actionsOf(member.role) },
        csrfToken: session.csrfToken,
        secondFactor: session.attributes.mfa ?? null,
      },
    });
  });

  app.delete(peoplePaths.session, requireSession(deps, 'signed_in', consoleOrigin), async (req, res) => {
    const { sessionId } = sessionOf(res);
    await signOut(deps, { sessionId, member: memberOf(res) }, originOf(req, res));
    clearSessionCookie(res);
    res.status(204).end();
  });
}
