import { isUuid } from '@pwa/contracts';
import type { Express } from 'express';
import { z } from '@pwa/config';
import { ConsoleError } from '@pwa/errors';
import { originOf, parsedInput } from '@pwa/web-auth';
import { findOperatorById } from '../store/operator-store';
import type { PersonalTokenSummary } from '../store/personal-token-store';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import { createPersonalToken, listOwnPersonalTokens, personalTokenLifetimeDaysDefault, personalTokenLifetimeDaysMax, revokeOnePersonalToken } from '../use-cases/personal-tokens';
import { requireSession, sessionOf } from './console-session';

/**
 * The console API for personal access tokens (decision 0072). Making one needs the console's
 * session with a recent sign-in (a token cannot make a token: requireSession refuses the bearer
 * here); listing and revoking work with either.
 */
export const personalTokenPaths = {
  tokens: '/api/v1/personal-tokens',
  token: '/api/v1/personal-tokens/:tokenId',
  /** Who a request acts as (a personal token's person, or the session's): what the CLI's whoami shows. */
  me: '/api/v1/me',
} as const;

const createBody = z.object({
  name: z.string().trim().min(1).max(60),
  lifetimeDays: z.number().int().min(1).max(personalTokenLifetimeDaysMax).default(personalTokenLifetimeDaysDefault),
});

const notRecent = 'Making a personal token needs a sign-in within the last 15 minutes: sign out, sign in again, then retry';

/** A token as the console shows it: never the secret or its hash. */
function shown(token: PersonalTokenSummary): Record<string, unknown> {
  const now = Date.now();
  const state = token.revokedAt !== null ? 'revoked' : token.expiresAt.getTime() <= now ? 'expired' : 'active';
  return {
    tokenId: token.tokenId,
    name: token.name,
    state,
    createdAt: token.createdAt.toISOString(),
    expiresAt: token.expiresAt.toISOString(),
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    revokedAt: token.revokedAt?.toISOString() ?? null,
  };
}

export function mountPersonalTokenRoutes(app: Express, deps: PeopleDependencies, consoleOrigin: string): void {
  const signedIn = requireSession(deps, 'signed_in', consoleOrigin);

  app.post(personalTokenPaths.tokens, signedIn, async (req, res) => {
    const { session, via } = sessionOf(res);
    if (via.kind !== 'session') throw new ConsoleError('CON_1004');
    const body = parsedInput(createBody, req.body);
    const outcome = await createPersonalToken(deps, session, body, originOf(req, res));
    if (outcome.kind === 'refused') throw new ConsoleError('CON_1004', outcome.reason === 'sign-in-not-recent' ? notRecent : undefined);
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json({ success: true, data: { token: shown(outcome.token), secret: outcome.secret } });
  });

  app.get(personalTokenPaths.tokens, signedIn, async (_req, res) => {
    const tokens = await listOwnPersonalTokens(deps, sessionOf(res).session.subjectId);
    res.json({ success: true, data: { tokens: tokens.map(shown) } });
  });

  app.get(personalTokenPaths.me, signedIn, async (_req, res) => {
    const { session, via } = sessionOf(res);
    const operator = await findOperatorById(deps.pool, session.subjectId);
    if (operator?.status !== 'active') throw new ConsoleError('CON_1004');
    res.json({ success: true, data: { operator: { operatorId: operator.operatorId, email: operator.email, displayName: operator.displayName, roles: [...operator.roles] }, via } });
  });

  app.delete(personalTokenPaths.token, signedIn, async (req, res) => {
    const tokenId = String(req.params.tokenId);
    if (!isUuid(tokenId)) throw new ConsoleError('CON_2001', 'The token id must be a UUID as GET /api/v1/personal-tokens lists it');
    const outcome = await revokeOnePersonalToken(deps, sessionOf(res).session.subjectId, tokenId, originOf(req, res));
    if (outcome.kind === 'refused') {
      if (outcome.reason === 'unknown-token') throw new ConsoleError('CON_4012');
      throw new ConsoleError('CON_1004');
    }
    res.status(204).end();
  });
}
