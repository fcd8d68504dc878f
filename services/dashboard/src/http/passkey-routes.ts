import type { Express } from 'express';
import { z } from '@pwa/config';
import { isUuid } from '@pwa/contracts';
import { ConsoleError } from '@pwa/errors';
import { originOf, parsedInput, passkeyAuthenticationBody, passkeyRegistrationBody, passkeySignInRefusalError, passkeysPerPersonMax } from '@pwa/web-auth';
import { completeSignInWithPasskey, listOwnPasskeys, passkeyRegistrationOptions, passkeySignInOptions, registerPasskey, removeOwnPasskey } from '../use-cases/member-passkeys';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import { memberOf, requireFreshCode, requireMember, requireSession, sessionOf, setSessionCookie } from './member-session';

/**
 * A member's own passkeys and the sign-in step with one. Every member, whatever the role, looks
 * after their own factors; asking to add one and removing one need the fresh MFA check (a recent
 * sign-in or a current code), as an admin's changes do. The registration's answer needs no second
 * check: its challenge exists only if the options were granted, for this session, minutes ago.
 */
export const passkeyPaths = {
  passkeys: '/api/v1/passkeys',
  registrationOptions: '/api/v1/passkeys/registration-options',
  /** A removal carries the fresh code in its body: a POST, as DELETE takes no body here. */
  passkeyRemoval: '/api/v1/passkeys/:passkeyId/removal',
  signInOptions: '/api/v1/session/passkey/options',
  signIn: '/api/v1/session/passkey',
} as const;

const freshCodeBody = z.object({ code: z.string().regex(/^\d{6}$/, 'the six digits your authenticator app shows now').optional() });
const tooMany = `You have ${passkeysPerPersonMax} passkeys already: remove one first`;

export function mountPasskeyRoutes(app: Express, deps: PeopleDependencies, consoleOrigin: string): void {
  const ownFactors = requireMember(deps, consoleOrigin, 'read');

  app.get(passkeyPaths.passkeys, ...ownFactors, async (_req, res) => {
    res.json({ success: true, data: { passkeys: await listOwnPasskeys(deps, memberOf(res)) } });
  });

  app.post(passkeyPaths.registrationOptions, ...ownFactors, requireFreshCode(deps), async (req, res) => {
    parsedInput(freshCodeBody, req.body);
    const outcome = await passkeyRegistrationOptions(deps, memberOf(res), sessionOf(res).sessionId);
    if (outcome.kind === 'refused') throw new ConsoleError('CON_2001', tooMany);
    res.json({ success: true, data: { options: outcome.options } });
  });

  app.post(passkeyPaths.passkeys, ...ownFactors, async (req, res) => {
    const body = parsedInput(passkeyRegistrationBody, req.body);
    const outcome = await registerPasskey(deps, memberOf(res), { sessionId: sessionOf(res).sessionId, response: body.response, name: body.name ?? 'Passkey' }, originOf(req, res));
    if (outcome.kind === 'refused') {
      switch (outcome.reason) {
        case 'challenge-unusable':
          throw new ConsoleError('CON_1010');
        case 'already-registered':
          throw new ConsoleError('CON_1009', 'This passkey is registered already');
        case 'too-many-passkeys':
          throw new ConsoleError('CON_2001', tooMany);
        case 'not-verified':
          throw new ConsoleError('CON_1009', 'The passkey could not be verified: start adding it again');
      }
    }
    res.status(201).json({ success: true, data: { passkey: outcome.passkey } });
  });

  app.post(passkeyPaths.passkeyRemoval, ...ownFactors, requireFreshCode(deps), async (req, res) => {
    parsedInput(freshCodeBody, req.body);
    const passkeyId = String(req.params.passkeyId);
    if (!isUuid(passkeyId)) throw new ConsoleError('CON_2001', 'The passkey id must be a UUID as GET /api/v1/passkeys lists it');
    const outcome = await removeOwnPasskey(deps, memberOf(res), passkeyId, originOf(req, res));
    if (outcome.kind === 'refused') throw new ConsoleError('CON_4017', 'No such passkey among yours');
    res.status(204).end();
  });

  const pending = requireSession(deps, 'mfa_pending', consoleOrigin);

  app.post(passkeyPaths.signInOptions, pending, async (_req, res) => {
    const outcome = await passkeySignInOptions(deps, sessionOf(res).sessionId);
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
