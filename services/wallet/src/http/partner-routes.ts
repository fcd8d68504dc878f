import type { Express, Request } from 'express';
import type { Pool } from '@pwa/db';
import { PkcError, successEnvelope } from '@pwa/errors';
import { toApiAmount } from '@pwa/money';
import { lookUpAccount, partnerBalances } from '../use-cases/look-up-account';
import { partnerStatement, wantsCsv } from '../use-cases/partner-statement';
import { statementCsvHeaders, uuidPattern } from '@pwa/contracts';

/** The partner-facing reads the gateway forwards (path without /api/v1, with x-partner-id). */
export function mountPartnerRoutes(app: Express, pool: Pool): void {
  app.get('/partner/v1/account/:phone', async (req, res) => {
    res.json(successEnvelope(await lookUpAccount(pool, req.params.phone)));
  });

  app.get('/partner/v1/balance', async (req, res) => {
    const balances = await partnerBalances(pool, partnerIdOf(req));
    res.json(successEnvelope({ LRD: toApiAmount(balances.LRD), USD: toApiAmount(balances.USD) }));
  });

  // JSON by default; the same page as CSV with Accept: text/csv (preferred over JSON) or format=csv.
  app.get('/partner/v1/statement', async (req, res) => {
    const answer = await partnerStatement(pool, partnerIdOf(req), req.query);
    res.vary('Accept');
    if (!wantsCsv(req.query, req.accepts(['application/json', 'text/csv']) === 'text/csv')) {
      res.json(successEnvelope(answer.page));
      return;
    }
    res.setHeader(statementCsvHeaders.openingBalance, String(answer.page.openingBalance));
    res.setHeader(statementCsvHeaders.closingBalance, String(answer.page.closingBalance));
    if (answer.page.nextCursor !== null) res.setHeader(statementCsvHeaders.nextCursor, answer.page.nextCursor);
    res.type('text/csv; charset=utf-8; header=present').send(answer.csv());
  });
}

/** The partner the gateway authenticated. Without it there is nobody whose balance could be shown. */
function partnerIdOf(req: Request): string {
  const partnerId = req.header('x-partner-id');
  if (partnerId === undefined || !uuidPattern.test(partnerId)) throw new PkcError('PKC_6005', 'x-partner-id header missing or not a UUID');
  return partnerId.toLowerCase();
}
