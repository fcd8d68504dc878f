import type { Express, Response } from 'express';
import { isUuid } from '@pwa/contracts';
import { z } from '@pwa/config';
import { ConsoleError } from '@pwa/errors';
import { requestIdOf } from '@pwa/http';
import { parsedInput } from '@pwa/web-auth';
import { mayPerform } from '../domain/operator-roles';
import { decodePageCursor, encodePageCursor } from '../domain/page-cursor';
import { findOperatorById } from '../store/operator-store';
import type { PartnerReads } from '../use-cases/console-reads';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import { requireSession, sessionOf } from './console-session';

export const partnerReadPaths = {
  partners: '/api/v1/partners',
  partner: '/api/v1/partners/:partnerId',
} as const;

const listQuery = z
  .object({
    q: z.string().trim().min(1).max(100).optional(),
    status: z.enum(['active', 'suspended', 'pending_activation', 'inactive']).optional(),
    cursor: z.string().max(200).optional(),
    pageSize: z.coerce.number().int().min(1).max(100).default(25),
  })
  .strict();

/**
 * Partners in the console, for every role (read): search by part of the name or an exact partner
 * or client id, newest first in keyset pages, and one partner with its approved changes. Read from
 * auth's admin routes on each call (the back-office keeps no copy); roles read from the database on
 * every call. Settings only: a client secret is never read, so never shown.
 */
export function mountPartnerReadRoutes(app: Express, deps: PeopleDependencies, consoleOrigin: string, partners: PartnerReads): void {
  const signedIn = requireSession(deps, 'signed_in', consoleOrigin);

  const reader = async (res: Response): Promise<void> => {
    const operator = await findOperatorById(deps.pool, sessionOf(res).session.subjectId);
    if (operator?.status !== 'active') throw new ConsoleError('CON_1004');
    if (!mayPerform(operator.roles, 'read')) throw new ConsoleError('CON_3001');
  };

  app.get(partnerReadPaths.partners, signedIn, async (req, res) => {
    await reader(res);
    const query = parsedInput(listQuery, req.query, 'query parameters');
    const after = query.cursor === undefined ? undefined : decodePageCursor(query.cursor);
    if (query.cursor !== undefined && after === undefined) throw new ConsoleError('CON_2001', 'cursor: not a cursor this list gave; start again without it');
    const page = await partners.searchPartners(
      { q: query.q, status: query.status, afterCreatedAt: after === undefined ? undefined : String(after.createdAt), afterId: after?.id, pageSize: query.pageSize },
      requestIdOf(res),
    );
    res.json({ success: true, data: { partners: page.partners, nextCursor: page.next === null ? null : encodePageCursor(page.next) } });
  });

  app.get(partnerReadPaths.partner, signedIn, async (req, res) => {
    await reader(res);
    const partnerId = String(req.params.partnerId);
    if (!isUuid(partnerId)) throw new ConsoleError('CON_4008');
    const [partner, clientSecrets] = await Promise.all([partners.partnerDetail(partnerId.toLowerCase(), requestIdOf(res)), partners.clientSecretSlots(partnerId.toLowerCase(), requestIdOf(res))]);
    if (!partner) throw new ConsoleError('CON_4008');
    // Whether a second client secret is active (both get tokens until the previous one is revoked): since when each, never a secret.
    res.json({ success: true, data: { ...partner, clientSecrets: clientSecrets ?? null } });
  });
}
