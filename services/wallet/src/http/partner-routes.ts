import type { Express } from 'express';
import type { Pool } from '@pwa/db';
import { successEnvelope } from '@pwa/errors';
import { toApiAmount } from '@pwa/money';
import { lookUpAccount, partnerBalances } from '../use-cases/look-up-account';
import { partnerStatement, wantsCsv } from '../use-cases/partner-statement';
import { assertedPartnerOf, statementCsvHeaders } from '@pwa/contracts';

/** The partner-facing reads the gateway forwards (path without /api/v1, with x-partner-id). */
export function mountPartnerRoutes(app: Express, pool: Pool): void {
  app.get('/partner/v1/account/:phone', async (req, res) => {
    res.json(successEnvelope(await lookUpAccount(pool, req.params.phone)));
  });

  app.get('/partner/v1/balance', async (req, res) => {
    const balances = await partnerBalances(pool, assertedPartnerOf(req.headers).partnerId);
    res.json(successEnvelope({ LRD: toApiAmount(balances.LRD), USD: toApiAmount(balances.USD) }));
  });

  // JSON by default; the same page as CSV with Accept: text/csv (preferred over JSON) or format=csv.
  app.get('/partner/v1/statement', async (req, res) => {
    const answer = await partnerStatement(pool, assertedPartnerOf(req.headers).partnerId, req.query);
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
