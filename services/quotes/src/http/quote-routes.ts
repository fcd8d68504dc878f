import type { Express, Request } from 'express';
import { assertedPartnerOf } from '@pwa/contracts';
import { successEnvelope } from '@pwa/errors';
import { jsonBodyAsWritten, requestIdOf } from '@pwa/http';
import { writtenNumber } from '@pwa/money';
import type { Quote } from '../domain/quote';
import type { QuoteType } from '../domain/quote-type';
import { collectionQuoteView, disbursementQuoteView } from '../domain/quote-views';
import { issueQuote, type IssueQuoteDependencies } from '../use-cases/issue-quote';
import { partnerPricing } from '../use-cases/partner-pricing';
import type { QuoteMetrics } from './quote-metrics';

/**
 * The partner's quote endpoints and its pricing, reached only through the gateway, which has already checked the
 * token, the partner's status and its permission for the operation, and names the partner in
 * x-partner-id.
 */
export function mountQuoteRoutes(app: Express, dependencies: IssueQuoteDependencies, metrics: QuoteMetrics): void {
  const lifetimeSeconds = dependencies.settings.lifetimeSeconds;

  /** Issues the quote and counts the request's outcome (issued, or rejected with the code answered). */
  const issueCounted = async (type: QuoteType, req: Request, requestId: string): Promise<Quote> => {
    try {
      const quote = await issueQuote(dependencies, type, assertedPartnerOf(req.headers).partnerId, bodyAsWritten(req), requestId);
      metrics.quoteIssued(type);
      return quote;
    } catch (error) {
      metrics.quoteRejected(type, error);
      throw error;
    }
  };

  app.post('/partner/v1/collection/quote', async (req, res) => {
    const quote = await issueCounted('collection', req, requestIdOf(res));
    res.status(200).json(successEnvelope(collectionQuoteView(quote, lifetimeSeconds)));
  });

  app.post('/partner/v1/disbursement/quote', async (req, res) => {
    const quote = await issueCounted('disbursement', req, requestIdOf(res));
    res.status(200).json(successEnvelope(disbursementQuoteView(quote, lifetimeSeconds)));
  });

  app.get('/partner/v1/pricing', async (req, res) => {
    const { rateLimitPerMinute } = assertedPartnerOf(req.headers);
    res.status(200).json(successEnvelope(await partnerPricing(dependencies.feeSchedules, rateLimitPerMinute)));
  });
}

/**
 * The quote body with its numbers as the client wrote them (the gateway forwards the body's bytes
 * unchanged), so the amount is judged on its written digits: `1.999999999999999999` has 18
 * decimals, whatever a double makes of it.
 */
function bodyAsWritten(req: Request): unknown {
  return jsonBodyAsWritten(req, writtenNumber) ?? req.body;
}
