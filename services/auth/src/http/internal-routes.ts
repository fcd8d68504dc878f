import type { Express } from 'express';
import type { Pool } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import { publicView } from '../domain/partner';
import { findPartnerById } from '../store/partner-store';
import type { SigningKeyring } from '../use-cases/signing-keyring';
import type { TokenSettings } from '../use-cases/issue-access-token';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Endpoints for other services on the internal network only; the gateway never routes to them. */
export function mountInternalRoutes(app: Express, pool: Pool, keyring: SigningKeyring, settings: TokenSettings): void {
  app.get(['/internal/jwks', '/.well-known/jwks.json'], async (_req, res) => {
    const keys = await keyring.publishedKeys();
    res.setHeader('Cache-Control', 'public, max-age=60');
    res.json({ keys: keys.map((key) => key.jwk) });
  });

  app.get('/internal/token-settings', (_req, res) => {
    res.json({ issuer: settings.issuer, audience: settings.audience, algorithms: ['ES256'], ttlSeconds: settings.ttlSeconds });
  });

  app.get('/internal/partners/:partnerId', async (req, res) => {
    const partnerId = req.params.partnerId;
    const partner = uuidPattern.test(partnerId) ? await findPartnerById(pool, partnerId) : undefined;
    if (!partner) throw new PkcError('PKC_1009', 'No such partner');
    res.json(publicView(partner));
  });
}
