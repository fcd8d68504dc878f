import type { Express } from 'express';
import type { z } from '@pwa/config';
import { internal } from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import { publicView } from '../domain/partner';
import { findPartnerById } from '../store/partner-store';
import { partnerDirectoryEntry, partnerDirectoryPage, partnerDirectoryPageMax } from '../use-cases/manage-partners';
import type { SigningKeyring } from '../use-cases/signing-keyring';
import type { TokenSettings } from '../use-cases/issue-access-token';

const uuidPattern = internal.uuidPattern;

/** Endpoints for other services on the internal network only; the gateway never routes to them. The partner lookup's answer is typed by auth's contract (libs/contracts internal/auth); the directory's is parsed with it by its reader (webhooks) and auth's integration test. */
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
    res.json(publicView(partner) satisfies z.input<typeof internal.partnerLookupAnswerSchema>);
  });

  // The partner directory: what partner events carry (settings and the sealed webhook secrets, as
  // auth publishes them), so a service that keeps a copy can rebuild it without the events it
  // missed (webhooks at start and for a partner it meets unknown). Sealed secrets open only with
  // WEBHOOK_SECRET_SEALING_KEY, which auth and webhooks alone hold.
  app.get('/internal/partner-directory', async (req, res) => {
    const after = queryText(req.query.after);
    const limitText = queryText(req.query.limit);
    if (after !== undefined && !uuidPattern.test(after)) throw new PkcError('PKC_2008', 'after must be a partner id (UUID)');
    const limit = limitText === undefined ? 100 : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > partnerDirectoryPageMax) {
      throw new PkcError('PKC_2008', `limit must be a whole number from 1 to ${partnerDirectoryPageMax}`);
    }
    res.json(await partnerDirectoryPage(pool, after?.toLowerCase() ?? null, limit));
  });

  app.get('/internal/partner-directory/:partnerId', async (req, res) => {
    const partnerId = req.params.partnerId;
    const entry = uuidPattern.test(partnerId) ? await partnerDirectoryEntry(pool, partnerId.toLowerCase()) : undefined;
    if (!entry) throw new PkcError('PKC_1009', 'No such partner');
    res.json(entry);
  });
}

function queryText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new PkcError('PKC_2008', 'a query parameter is repeated or malformed');
  return value;
}
