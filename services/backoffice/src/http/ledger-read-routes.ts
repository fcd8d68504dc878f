import type { Express, Response } from 'express';
import { adminSearchPhone, isUuid } from '@pwa/contracts';
import { z } from '@pwa/config';
import { ConsoleError } from '@pwa/errors';
import { requestIdOf } from '@pwa/http';
import { parsedInput } from '@pwa/web-auth';
import { mayPerform } from '../domain/operator-roles';
import { decodePageCursor, encodePageCursor } from '../domain/page-cursor';
import { findOperatorById } from '../store/operator-store';
import type { PartnerReads, WalletReads } from '../use-cases/console-reads';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import { requireSession, sessionOf } from './console-session';

export const ledgerReadPaths = {
  transactions: '/api/v1/transactions',
  partnerBalances: '/api/v1/partners/:partnerId/balances',
  ledgerCheck: '/api/v1/ledger-check',
} as const;

const isoInstant = z.iso.datetime({ offset: true });
const transactionQuery = z
  .object({
    referenceId: z.string().trim().min(1).max(100).optional(),
    externalId: z.string().trim().min(1).max(100).optional(),
    phone: z.string().trim().min(1).max(30).optional(),
    partnerId: z.string().uuid().optional(),
    from: isoInstant.optional(),
    to: isoInstant.optional(),
    cursor: z.string().max(200).optional(),
    pageSize: z.coerce.number().int().min(1).max(100).default(25),
  })
  .strict();

/**
 * Money in the console, for every role (read): transactions across partners (by referenceId,
 * externalId, the user's phone as people type it, partner, and a date range; newest first in
 * keyset pages), a partner's balances, and the ledger check. Read from the wallet's routes on each
 * call; roles read from the database on every call.
 */
export function mountLedgerReadRoutes(app: Express, deps: PeopleDependencies, consoleOrigin: string, owners: { wallet: WalletReads; partners: PartnerReads }): void {
  const signedIn = requireSession(deps, 'signed_in', consoleOrigin);

  const reader = async (res: Response): Promise<void> => {
    const operator = await findOperatorById(deps.pool, sessionOf(res).session.subjectId);
    if (operator?.status !== 'active') throw new ConsoleError('CON_1004');
    if (!mayPerform(operator.roles, 'read')) throw new ConsoleError('CON_3001');
  };

  app.get(ledgerReadPaths.transactions, signedIn, async (req, res) => {
    await reader(res);
    const query = parsedInput(transactionQuery, req.query, 'query parameters');
    const phone = query.phone === undefined ? undefined : adminSearchPhone(query.phone);
    if (query.phone !== undefined && phone === undefined) throw new ConsoleError('CON_2001', 'phone: not a Liberian mobile number (0777 123 456 or +231 777 123 456)');
    if (query.from !== undefined && query.to !== undefined && Date.parse(query.from) >= Date.parse(query.to)) throw new ConsoleError('CON_2001', 'from: must be before to');
    const after = query.cursor === undefined ? undefined : decodePageCursor(query.cursor);
    if (query.cursor !== undefined && after === undefined) throw new ConsoleError('CON_2001', 'cursor: not a cursor this list gave; start again without it');
    const page = await owners.wallet.searchTransactions(
      {
        referenceId: query.referenceId,
        externalId: query.externalId,
        phone,
        partnerId: query.partnerId?.toLowerCase(),
        from: query.from,
        to: query.to,
        afterPostedAt: after === undefined ? undefined : String(after.createdAt),
        afterId: after?.id,
        pageSize: query.pageSize,
      },
      requestIdOf(res),
    );
    const transactions = page.transactions.map((transaction) => ({ ...transaction, amountMinor: transaction.amountMinor.toString() }));
    res.json({ success: true, data: { transactions, nextCursor: page.next === null ? null : encodePageCursor({ createdAt: page.next.postedAt, id: page.next.id }) } });
  });

  app.get(ledgerReadPaths.partnerBalances, signedIn, async (req, res) => {
    await reader(res);
    const partnerId = String(req.params.partnerId);
    // A partner auth does not know has no balances to show: the same 404 as its detail page.
    if (!isUuid(partnerId) || (await owners.partners.partnerDetail(partnerId.toLowerCase(), requestIdOf(res))) === undefined) throw new ConsoleError('CON_4008');
    res.json({ success: true, data: await owners.wallet.partnerBalances(partnerId.toLowerCase(), requestIdOf(res)) });
  });

  app.get(ledgerReadPaths.ledgerCheck, signedIn, async (_req, res) => {
    await reader(res);
    res.json({ success: true, data: await owners.wallet.ledgerCheck(requestIdOf(res)) });
  });
}
