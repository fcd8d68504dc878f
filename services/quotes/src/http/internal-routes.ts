import type { Express } from 'express';
import type { z } from '@pwa/config';
import type { consumedQuoteAnswerSchema } from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import type { ConsumedQuote } from '../domain/quote';
import { consumeQuoteForConfirm } from '../use-cases/consume-quote';
import type { QuoteMetrics } from './quote-metrics';

/** For the confirm services on the internal network only; the gateway never routes here. */
export function mountInternalRoutes(app: Express, pool: Pool, metrics: QuoteMetrics): void {
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
