import type { Pool } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import type { ConsumedQuote } from '../domain/quote';
import { parseConsumeRequest, refusalCodeOf } from '../domain/quote-consumption';
import { consumeQuote, findQuoteStateForDiagnosis } from '../store/quote-store';

/**
 * Uses a quote once, for the confirm service that calls it. The conditional update decides; only a
 * refusal reads the quote again to say why. Once used, a quote stays used whatever the confirm
 * call does next: a failed confirm needs a new quote.
 */
export async function consumeQuoteForConfirm(pool: Pool, quoteId: string, body: unknown): Promise<ConsumedQuote> {
  const request = parseConsumeRequest(quoteId, body);
  const consumed = await consumeQuote(pool, request.quoteId, request.partnerId, request.type);
  if (consumed) return consumed;
  const state = await findQuoteStateForDiagnosis(pool, request.quoteId);
  throw new PkcError(refusalCodeOf(state, request));
}
