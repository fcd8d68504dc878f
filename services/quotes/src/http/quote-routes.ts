import type { Express, Request } from 'express';
import { PkcError, successEnvelope } from '@pwa/errors';
import { requestIdOf } from '@pwa/http';
import { isUuid } from '../domain/quote-consumption';
import { collectionQuoteView, disbursementQuoteView } from '../domain/quote-views';
import { issueQuote, type IssueQuoteDependencies } from '../use-cases/issue-quote';

/**
 * The partner's quote endpoints, reached only through the gateway, which has already checked the
 * token, the partner's status and its permission for the operation, and names the partner in
 * x-partner-id.
 */
export function mountQuoteRoutes(app: Express, dependencies: IssueQuoteDependencies): void {
  const lifetimeSeconds = dependencies.settings.lifetimeSeconds;

  app.post('/partner/v1/collection/quote', async (req, res) => {
    const quote = await issueQuote(dependencies, 'collection', partnerIdOf(req), req.body, requestIdOf(res));
    res.status(200).json(successEnvelope(collectionQuoteView(quote, lifetimeSeconds)));
  });

  app.post('/partner/v1/disbursement/quote', async (req, res) => {
    const quote = await issueQuote(dependencies, 'disbursement', partnerIdOf(req), req.body, requestIdOf(res));
    res.status(200).json(successEnvelope(disbursementQuoteView(quote, lifetimeSeconds)));
  });
}

/** Without the gateway's word on who is calling there is no partner to quote for. */
function partnerIdOf(req: Request): string {
  const partnerId = req.header('x-partner-id');
  if (!isUuid(partnerId)) throw new PkcError('PKC_6005', 'Requests must come through the gateway');
  return partnerId.toLowerCase();
}

