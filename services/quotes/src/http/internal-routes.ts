import type { Express } from 'express';
import type { z } from '@pwa/config';
import { requestIdOf } from '@pwa/http';
import { quotesPaths, type bulkQuoteAnswerSchema, type consumedBulkQuoteAnswerSchema, type consumedQuoteAnswerSchema } from '@pwa/contracts';
import type { ConsumedBulkQuote } from '../domain/bulk-quote';
import type { ConsumedQuote } from '../domain/quote';
import { consumeBulkQuoteForTransfer } from '../use-cases/consume-bulk-quote';
import { consumeQuoteForConfirm } from '../use-cases/consume-quote';
import { issueBulkQuote, type IssueBulkQuoteDependencies, type IssuedBulkQuote } from '../use-cases/issue-bulk-quote';
import type { QuoteMetrics } from './quote-metrics';

/** For the confirm and disbursements services on the internal network only; the gateway never routes here. */
export function mountInternalRoutes(app: Express, dependencies: IssueBulkQuoteDependencies, metrics: QuoteMetrics): void {
  const { pool } = dependencies;
  app.post('/internal/quotes/:quoteId/consume', async (req, res) => {
    let quote: ConsumedQuote;
    try {
      quote = await consumeQuoteForConfirm(pool, req.params.quoteId, req.body);
    } catch (error) {
      metrics.consumptionRejected(error);
      throw error;
    }
    metrics.consumed();
    res.status(200).json(consumedQuoteView(quote));
  });

  app.post(quotesPaths.bulkQuotes, async (req, res) => {
    const issued = await issueBulkQuote(dependencies, req.body, requestIdOf(res));
    res.status(200).json(bulkQuoteView(issued));
  });

  app.post('/internal/bulk-quotes/:bulkQuoteId/consume', async (req, res) => {
    const consumed = await consumeBulkQuoteForTransfer(pool, req.params.bulkQuoteId, req.body);
    res.status(200).json(consumedBulkQuoteView(consumed));
  });
}

/** The bulk quote's answer (libs/contracts internal/quotes): results in the request's order, amounts as minor-unit text. */
export function bulkQuoteView(bulk: IssuedBulkQuote): z.input<typeof bulkQuoteAnswerSchema> {
  return {
    bulkQuoteId: bulk.bulkQuoteId,
    currency: bulk.currency,
    expiresAt: bulk.expiresAt.toISOString(),
    partnerBalanceMinor: bulk.partnerBalanceMinor.toString(),
    items: bulk.items.map((item) =>
      item.outcome === 'valid'
        ? { index: item.index, outcome: 'valid', feeMinor: item.feeMinor.toString(), recipientName: item.recipientName }
        : { index: item.index, outcome: 'invalid', code: item.code },
    ),
  };
}

/** The consumed bulk quote's answer: its valid items ordered by index, fees as fixed when quoted. */
export function consumedBulkQuoteView(bulk: ConsumedBulkQuote): z.input<typeof consumedBulkQuoteAnswerSchema> {
  return {
    bulkQuoteId: bulk.bulkQuoteId,
    partnerId: bulk.partnerId,
    currency: bulk.currency,
    expiresAt: bulk.expiresAt.toISOString(),
    usedAt: bulk.usedAt.toISOString(),
    items: bulk.items.map((item) => ({
      index: item.index,
      phone: item.phone,
      recipientName: item.recipientName,
      amountMinor: item.amountMinor.toString(),
      feeMinor: item.feeMinor.toString(),
      externalId: item.externalId,
      note: item.note,
    })),
  };
}

/** The answer of the quotes service's contract (libs/contracts internal/quotes): amounts as minor-unit text, times in ISO 8601 UTC. */
export function consumedQuoteView(quote: ConsumedQuote): z.input<typeof consumedQuoteAnswerSchema> {
  return {
    quoteId: quote.quoteId,
    type: quote.type,
    partnerId: quote.partnerId,
    phone: quote.phone,
    currency: quote.currency,
    amountMinor: quote.amountMinor.toString(),
    feeMinor: quote.feeMinor.toString(),
    totalDebitMinor: quote.totalDebitMinor.toString(),
    recipientName: quote.recipientName,
    expiresAt: quote.expiresAt.toISOString(),
    usedAt: quote.usedAt.toISOString(),
  };
}
