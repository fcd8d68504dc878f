import { z } from '@pwa/config';
import { PkcError, isPkcCode, type PkcCode } from '@pwa/errors';
import type { Logger } from '@pwa/logging';
import type { Currency } from '@pwa/money';
import type { InternalHttpClient } from './internal-http';

export interface ConsumedQuote {
  quoteId: string;
  phone: string;
  currency: Currency;
  amountMinor: bigint;
  feeMinor: bigint;
  recipientName: string;
}

export interface QuoteConsumer {
  consume(quoteId: string, partnerId: string, requestId?: string): Promise<ConsumedQuote>;
}

const minorString = z.string().regex(/^\d{1,18}$/).transform((text) => BigInt(text));
const consumedSchema = z.object({
  quoteId: z.string(),
  type: z.literal('collection'),
  phone: z.string().min(1),
  currency: z.enum(['LRD', 'USD']),
  amountMinor: minorString,
  feeMinor: minorString,
  recipientName: z.string(),
});
const refusalSchema = z.object({ success: z.literal(false), code: z.string(), message: z.string().optional() });
const passedOn = new Set<PkcCode>(['PKC_2009', 'PKC_5001', 'PKC_5002', 'PKC_5003', 'PKC_5004']);

/** quotes POST /internal/quotes/:quoteId/consume (docs/internal-contracts.md); unreachable → PKC_7003. */
export function createQuoteConsumer(http: InternalHttpClient, logger: Logger): QuoteConsumer {
  return {
    consume: async (quoteId, partnerId, requestId) => {
      let answer;
      try {
        answer = await http.post(`/internal/quotes/${encodeURIComponent(quoteId)}/consume`, { partnerId, type: 'collection' }, requestId);
      } catch (error) {
        logger.warn({ err: error }, 'quote consumption failed; answering PKC_7003');
        throw new PkcError('PKC_7003', undefined, { cause: error });
      }
      if (answer.status === 200) {
        const parsed = consumedSchema.safeParse(answer.body);
        if (parsed.success) return parsed.data;
        logger.error({ issues: parsed.error.issues }, 'quotes answer does not match the contract');
        throw new PkcError('PKC_7002');
      }
      const refusal = refusalSchema.safeParse(answer.body);
      if (refusal.success && isPkcCode(refusal.data.code) && passedOn.has(refusal.data.code)) throw new PkcError(refusal.data.code, refusal.data.message);
      logger.error({ status: answer.status, body: answer.body }, 'quotes refused outside the contract');
      throw new PkcError('PKC_7002');
    },
  };
}
