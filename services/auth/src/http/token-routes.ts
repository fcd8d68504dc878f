import express, { type ErrorRequestHandler, type Express } from 'express';
import type { Pool } from '@pwa/db';
import { unreadableBodyMessageOf } from '@pwa/http';
import { parseClientCredentials, tokenRefusal } from '../domain/token-request';
import { issueAccessToken, type TokenSettings } from '../use-cases/issue-access-token';
import type { SigningKeyring } from '../use-cases/signing-keyring';

/**
 * POST /partner/auth/token. The success body is the bare token object (not the envelope), with
 * Cache-Control: no-store as RFC 6749 requires. Client credentials come in HTTP Basic, a JSON body
 * or a form body; every refusal carries the RFC 6749 `error` field and, on a 401, the Basic challenge.
 */
export const tokenPath = '/partner/auth/token';

export function mountTokenRoutes(app: Express, pool: Pool, keyring: SigningKeyring, settings: TokenSettings): void {
  app.post(
    tokenPath,
    express.urlencoded({ extended: false, limit: '4kb' }),
    async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Pragma', 'no-cache');
      const credentials = parseClientCredentials(req.body, req.header('authorization'));
      const token = await issueAccessToken(pool, keyring, settings, credentials);
      res.status(200).json(token);
    },
  );
  app.use(tokenPath, unreadableTokenBodies);
}

/**
 * A token request body that cannot be read (not JSON, too large, bad encoding) is PKC_1001
 * invalid_request, with the challenge, like every other 401 of this endpoint.
 */
const unreadableTokenBodies: ErrorRequestHandler = (error, _req, _res, next) => {
  const message = unreadableBodyMessageOf(error);
  if (message !== undefined) {
    next(tokenRefusal('PKC_1001', 'invalid_request', message));
    return;
  }
  next(error);
};
