import type { Express } from 'express';
import { ConsoleError } from '@pwa/errors';
import { originOf, passwordRuleMessages } from '@pwa/web-auth';
import { findOperatorById } from '../store/operator-store';
import { beginOperatorSetup, completeOperatorSetup } from '../use-cases/operator-setup';
import { completeSignInWithTotp, signOut, signInWithPassword } from '../use-cases/operator-sign-in';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import { stringFieldsOf } from './console-request';
import { clearSessionCookie, requireSameOrigin, requireSession, sessionOf, setSessionCookie } from './console-session';
import { mountOidcRoutes, oidcPaths } from './oidc-routes';
import { mountPasskeyRoutes } from './passkey-routes';
import { operatorPasskeys } from '../store/passkey-store';

/** The console API's paths for people: set-up, sign-in in two steps, who is signed in, sign-out. */
export const peoplePaths = {
  setupBegin: '/api/v1/setup/begin',
  setupComplete: '/api/v1/setup/complete',
  session: '/api/v1/session',
  sessionMfa: '/api/v1/session/mfa',
  /** Which ways to sign in this back-office offers (the sign-in page asks before it draws its buttons). */
  sessionMethods: '/api/v1/session/methods',
} as const;


export function mountPeopleRoutes(app: Express, deps: PeopleDependencies, consoleOrigin: string): void {
  const sameOrigin = requireSameOrigin(deps, consoleOrigin);

  app.post(peoplePaths.setupBegin, sameOrigin, async (req, res) => {
    const { token } = stringFieldsOf(req.body, ['token'], 200);
    const begun = await beginOperatorSetup(deps, token);
    if (begun.kind === 'refused') throw new ConsoleError('CON_1006');
    res.json({ success: true, data: { email: begun.email, displayName: begun.displayName, otpauthUri: begun.otpauthUri, secretBase32: begun.secretBase32, enrolment: begun.sealedSecret } });
  });

  app.post(peoplePaths.setupComplete, sameOrigin, async (req, res) => {
    const fields = stringFieldsOf(req.body, ['token', 'password', 'enrolment', 'code'], 1_000);
    const completed = await completeOperatorSetup(deps, { token: fields.token, password: fields.password, sealedSecret: fields.enrolment, code: fields.code }, originOf(req, res));
    if (completed.kind === 'activated') {
      res.status(201).json({ success: true, data: { operatorId: completed.operatorId, email: completed.email } });
      return;
    }
    switch (completed.reason) {
      case 'link-unusable':
        throw new ConsoleError('CON_1006');
      case 'password-policy':
        throw new ConsoleError('CON_1007', passwordRuleMessages[completed.failedRule]);
      case 'wrong-code':
        throw new ConsoleError('CON_1003');
      case 'enrolment-not-for-this-link':
        throw new ConsoleError('CON_1008');
    }
  });

  app.post(peoplePaths.session, sameOrigin, async (req, res) => {
    const { email, password } = stringFieldsOf(req.body, ['email', 'password'], 256);
    const outcome = await signInWithPassword(deps, { email, password }, originOf(req, res));
    if (outcome.kind === 'refused') {
      if (outcome.reason === 'throttled') throw new ConsoleError('CON_1002', undefined, { headers: { 'Retry-After': String(outcome.retryAfterSeconds) } });
      throw new ConsoleError('CON_1001');
    }
    setSessionCookie(res, outcome.sessionId);
    res.status(202).json({ success: true, data: { stage: 'mfa_pending', csrfToken: outcome.csrfToken } });
  });

  app.post(peoplePaths.sessionMfa, requireSession(deps, 'mfa_pending', consoleOrigin), async (req, res) => {
    const { code } = stringFieldsOf(req.body, ['code'], 16);
    const outcome = await completeSignInWithTotp(deps, { sessionId: sessionOf(res).sessionId, code }, originOf(req, res));
    if (outcome.kind === 'refused') throw new ConsoleError(outcome.reason === 'wrong-code' ? 'CON_1003' : 'CON_1004');
    setSessionCookie(res, outcome.sessionId);
    res.json({ success: true, data: { stage: 'signed_in', csrfToken: outcome.csrfToken } });
  });

  app.get(peoplePaths.sessionMethods, (_req, res) => {
    res.json({ success: true, data: { password: true, oidc: deps.oidc === undefined ? null : { start: oidcPaths.start } } });
  });

  // The half-signed-in session (after the password or the identity provider): its CSRF token and the factors that can complete it.
  app.get(peoplePaths.sessionMfa, requireSession(deps, 'mfa_pending', consoleOrigin), async (_req, res) => {
    const { session } = sessionOf(res);
    const factors = ['totp', ...((await operatorPasskeys.passkeyCountOf(deps.pool, session.subjectId)) > 0 ? ['passkey'] : [])];
    res.json({ success: true, data: { stage: 'mfa_pending', csrfToken: session.csrfToken, factors } });
  });

  mountPasskeyRoutes(app, deps, consoleOrigin);
  mountOidcRoutes(app, deps, consoleOrigin);

  app.get(peoplePaths.session, requireSession(deps, 'signed_in', consoleOrigin), async (_req, res) => {
    const { session } = sessionOf(res);
    const operator = await findOperatorById(deps.pool, session.subjectId);
    if (operator?.status !== 'active') throw new ConsoleError('CON_1004');
    // How and when this session signed in: the page offers passkey changes only while they are allowed (decision 0070).
    const completedAtMs = session.expiresAtMs - deps.sessions.absoluteTimeoutMs;
    const signIn = {
      method: session.attributes.method ?? 'password',
      secondFactor: session.attributes.mfa ?? null,
      completedAt: new Date(completedAtMs).toISOString(),
      factorChangesUntil: deps.passkeys === undefined ? null : new Date(completedAtMs + deps.passkeys.recentSignInMs).toISOString(),
    };
    res.json({ success: true, data: { operator: { operatorId: operator.operatorId, email: operator.email, displayName: operator.displayName, roles: operator.roles }, csrfToken: session.csrfToken, signIn } });
  });

  app.delete(peoplePaths.session, requireSession(deps, 'signed_in', consoleOrigin), async (req, res) => {
    const { session, sessionId } = sessionOf(res);
    await signOut(deps, { sessionId, operatorId: session.subjectId }, originOf(req, res));
    clearSessionCookie(res);
    res.status(204).end();
  });
}
