import { isUuid } from '@pwa/contracts';
import type { Express } from 'express';
import { ConsoleError } from '@pwa/errors';
import { originOf, parsedInput, passkeyAuthenticationBody, passkeyRegistrationBody, passkeySignInRefusalError } from '@pwa/web-auth';
import { completeSignInWithPasskey, listOwnPasskeys, passkeyRegistrationOptions, passkeySignInOptions, passkeysPerOperatorMax, registerPasskey, removeOwnPasskey } from '../use-cases/operator-passkeys';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import { requireSession, sessionOf, setSessionCookie } from './console-session';

/**
 * The console API for passkeys (decision 0070). The bodies are what @simplewebauthn/browser's
 * startRegistration / startAuthentication give, sent as they are: `{ response, name? }` and
 * `{ response }`. Every state change carries the session's CSRF token.
 */
export const passkeyPaths = {
  passkeys: '/api/v1/passkeys',
  registrationOptions: '/api/v1/passkeys/registration-options',
  passkey: '/api/v1/passkeys/:passkeyId',
  signInOptions: '/api/v1/session/passkey/options',
  signIn: '/api/v1/session/passkey',
} as const;

const notRecent = 'Adding or removing a passkey needs a sign-in within the last 15 minutes: sign out, sign in again, then retry';

export function mountPasskeyRoutes(app: Express, deps: PeopleDependencies, consoleOrigin: string): void {
  const signedIn = requireSession(deps, 'signed_in', consoleOrigin);
  const pending = requireSession(deps, 'mfa_pending', consoleOrigin);

  app.get(passkeyPaths.passkeys, signedIn, async (_req, res) => {
    const passkeys = await listOwnPasskeys(deps, sessionOf(res).session.subjectId);
    res.json({ success: true, data: { passkeys } });
  });

  app.post(passkeyPaths.registrationOptions, signedIn, async (_req, res) => {
    const outcome = await passkeyRegistrationOptions(deps, sessionOf(res));
    if (outcome.kind === 'refused') {
      if (outcome.reason === 'sign-in-not-recent') throw new ConsoleError('CON_1004', notRecent);
      if (outcome.reason === 'too-many-passkeys') throw new ConsoleError('CON_2001', `You have ${passkeysPerOperatorMax} passkeys already: remove one first`);
      throw new ConsoleError('CON_1004');
    }
    res.json({ success: true, data: { options: outcome.options } });
  });

  app.post(passkeyPaths.passkeys, signedIn, async (req, res) => {
    const body = parsedInput(passkeyRegistrationBody, req.body);
    const outcome = await registerPasskey(deps, { ...sessionOf(res), response: body.response, name: body.name ?? 'Passkey' }, originOf(req, res));
    if (outcome.kind === 'refused') {
      switch (outcome.reason) {
        case 'sign-in-not-recent':
          throw new ConsoleError('CON_1004', notRecent);
        case 'challenge-unusable':
          throw new ConsoleError('CON_1010');
        case 'already-registered':
          throw new ConsoleError('CON_1009', 'This passkey is registered already');
        case 'too-many-passkeys':
          throw new ConsoleError('CON_2001', `You have ${passkeysPerOperatorMax} passkeys already: remove one first`);
        case 'not-active':
          throw new ConsoleError('CON_1004');
        case 'not-verified':
          throw new ConsoleError('CON_1009', 'The passkey could not be verified: start the registration again');
      }
    }
    res.status(201).json({ success: true, data: { passkey: outcome.passkey } });
  });

  app.delete(passkeyPaths.passkey, signedIn, async (req, res) => {
    const passkeyId = String(req.params.passkeyId);
    if (!isUuid(passkeyId)) throw new ConsoleError('CON_2001', 'The passkey id must be a UUID as GET /api/v1/passkeys lists it');
    const outcome = await removeOwnPasskey(deps, { session: sessionOf(res).session, passkeyId }, originOf(req, res));
    if (outcome.kind === 'refused') {
      if (outcome.reason === 'sign-in-not-recent') throw new ConsoleError('CON_1004', notRecent);
      if (outcome.reason === 'unknown-passkey') throw new ConsoleError('CON_4005', 'No such passkey among yours');
      throw new ConsoleError('CON_1004');
    }
    res.status(204).end();
  });

  app.post(passkeyPaths.signInOptions, pending, async (_req, res) => {
    const outcome = await passkeySignInOptions(deps, sessionOf(res));
    if (outcome.kind === 'refused') throw passkeySignInRefusalError(outcome);
    res.json({ success: true, data: { options: outcome.options } });
  });

  app.post(passkeyPaths.signIn, pending, async (req, res) => {
    const body = parsedInput(passkeyAuthenticationBody, req.body);
    const outcome = await completeSignInWithPasskey(deps, { sessionId: sessionOf(res).sessionId, response: body.response }, originOf(req, res));
    if (outcome.kind === 'refused') throw passkeySignInRefusalError(outcome);
    setSessionCookie(res, outcome.sessionId);
    res.json({ success: true, data: { stage: 'signed_in', csrfToken: outcome.csrfToken } });
  });
}
