import type { Express, Response } from 'express';
import { PkcError } from '@pwa/errors';
import { expiredHostCookie, hostCookie, originOf, readHostCookie } from '@pwa/web-auth';
import { OidcProviderUnavailable } from '../use-cases/oidc-identity-provider';
import { finishOidcSignIn, oidcFlowTtlMs, startOidcSignIn } from '../use-cases/operator-oidc-sign-in';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import { oidcCallbackPath } from '../wiring/people-dependencies';
import { setSessionCookie } from './console-session';

/**
 * Sign-in with the company's identity provider (decision 0071), mounted only when it is configured.
 * Both are browser navigations, not calls from the page: the start redirects to the provider, the
 * callback to the console's page (`/` signed in, `/sign-in?step=mfa` for the local second factor,
 * `/sign-in?error=CON_1011` refused, the same for every refusal so it never tells whether an
 * account exists). The callback's protection against cross-site requests is the state, spent
 * once, and bound to the browser that started by a cookie: SameSite=Lax, because it must come back
 * on the provider's redirect, which a Strict cookie would not.
 */
export const oidcPaths = {
  start: '/api/v1/session/oidc/start',
  callback: oidcCallbackPath,
} as const;

/** The browser-binding cookie (`__Host-backoffice-oidc`): a random value whose hash the started sign-in is kept under. */
export const oidcBindingCookieName = 'backoffice-oidc';

export const oidcLandingPages = { signedIn: '/', mfaRequired: '/sign-in?step=mfa', refused: '/sign-in?error=CON_1011' } as const;

export function mountOidcRoutes(app: Express, deps: PeopleDependencies, consoleOrigin: string): void {
  if (deps.oidc === undefined) return;

  app.get(oidcPaths.start, async (_req, res) => {
    let started;
    try {
      started = await startOidcSignIn(deps);
    } catch (error) {
      if (error instanceof OidcProviderUnavailable) throw new PkcError('PKC_7003', 'The identity provider did not answer: try again, or sign in with your password');
      throw error;
    }
    res.append('Set-Cookie', hostCookie(oidcBindingCookieName, started.browserBinding, { sameSite: 'Lax', maxAgeSeconds: oidcFlowTtlMs / 1000 }));
    res.redirect(303, started.redirectTo);
  });

  app.get(oidcPaths.callback, async (req, res) => {
    res.append('Set-Cookie', expiredHostCookie(oidcBindingCookieName, { sameSite: 'Lax' }));
    const state = typeof req.query.state === 'string' ? req.query.state : undefined;
    let outcome;
    try {
      outcome = await finishOidcSignIn(deps, { callbackUrl: req.originalUrl, state, browserBinding: readHostCookie(req.get('cookie'), oidcBindingCookieName) }, originOf(req, res));
    } catch (error) {
      if (error instanceof OidcProviderUnavailable) throw new PkcError('PKC_7003', 'The identity provider did not answer: try again, or sign in with your password');
      throw error;
    }
    if (outcome.kind === 'refused') {
      landOn(res, consoleOrigin, oidcLandingPages.refused);
      return;
    }
    setSessionCookie(res, outcome.sessionId);
    landOn(res, consoleOrigin, outcome.kind === 'signed-in' ? oidcLandingPages.signedIn : oidcLandingPages.mfaRequired);
  });
}

function landOn(res: Response, consoleOrigin: string, page: string): void {
  res.redirect(303, `${consoleOrigin}${page}`);
}
