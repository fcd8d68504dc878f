import { bulkQuoteConsumeRequestSchema } from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import type { ConsumedBulkQuote } from '../domain/bulk-quote';
import { isUuid, refusalCodeOf } from '../domain/quote-consumption';
import { consumeBulkQuote, findBulkQuoteStateForDiagnosis } from '../store/bulk-quote-store';

/**
 * Uses a bulk quote once, for the disbursements service's bulk transfer. The conditional update
 * decides; only a refusal reads the bulk quote again to say why, in a single quote's order (a bulk
 * quote is a disbursement quote): not found or expired PKC_5001, another partner's PKC_5004,
 * already used PKC_5002. A bulkQuoteId that is not a UUID is PKC_2009, a bad body PKC_2008.
 */
export async function consumeBulkQuoteForTransfer(pool: Pool, bulkQuoteId: string, body: unknown): Promise<ConsumedBulkQuote> {
  if (!isUuid(bulkQuoteId)) throw new PkcError('PKC_2009');
  const parsed = bulkQuoteConsumeRequestSchema.safeParse(body);
  if (!parsed.success) throw new PkcError('PKC_2008', 'consume needs partnerId (UUID)');
  const request = { quoteId: bulkQuoteId.toLowerCase(), partnerId: parsed.data.partnerId, type: 'disbursement' as const };
  const consumed = await consumeBulkQuote(pool, request.quoteId, request.partnerId);
  if (consumed) return consumed;
  const state = await findBulkQuoteStateForDiagnosis(pool, request.quoteId);
  throw new PkcError(refusalCodeOf(state, request));
}
