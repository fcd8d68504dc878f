import express, { type Express } from 'express';
import type { Pool } from '@pwa/db';
import { parseClientCredentials } from '../domain/token-request';
import { issueAccessToken, type TokenSettings } from '../use-cases/issue-access-token';
import type { SigningKeyring } from '../use-cases/signing-keyring';

/**
 * POST /partner/auth/token. The success body is the bare token object (not the envelope), with
 * Cache-Control: no-store as RFC 6749 requires. A body that is not JSON is PKC_1001 here.
 */
export const tokenPath = '/partner/auth/token';

export function mountTokenRoutes(app: Express, pool: Pool, keyring: SigningKeyring, settings: TokenSettings): void {
  app.post(
    tokenPath,
    express.urlencoded({ extended: false, limit: '4kb' }),
    async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Pragma', 'no-cache');
      const credentials = parseClientCredentials(req.body);
      const token = await issueAccessToken(pool, keyring, settings, credentials);
      res.status(200).json(token);
    },
  );
}
