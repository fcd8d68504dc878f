import { z } from '@pwa/config';
import { PkcError, isPkcCode, type PkcCode } from '@pwa/errors';
import { createInternalJsonClient } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import { currencies, type Currency } from '@pwa/money';
import type { Deadline } from '../domain/deadline';
import { postJson, withBreaker, type BreakerSettings } from './upstream-call';

/** What quotes answers when a disbursement quote is consumed (docs/internal-contracts.md). */
export interface ConsumedQuote {
  quoteId: string;
  partnerId: string;
  phone: string;
  currency: Currency;
  amountMinor: bigint;
  feeMinor: bigint;
  recipientName: string;
}

export interface QuotesClient {
  /** Uses the quote once; throws PkcError with the quote's refusal code, or UpstreamFailure. */
  consume(request: { quoteId: string; partnerId: string; deadline: Deadline; requestId?: string }): Promise<ConsumedQuote>;
  shutdown(): void;
}

const refusalCodesPassedOn = new Set<PkcCode>(['PKC_2009', 'PKC_5001', 'PKC_5002', 'PKC_5003', 'PKC_5004']);
const minorString = z.string().regex(/^\d{1,18}$/).transform((text) => BigInt(text));
const consumedSchema = z.object({
  quoteId: z.string(),
  type: z.literal('disbursement'),
  partnerId: z.string(),
  phone: z.string().min(1),
  currency: z.enum(currencies),
  amountMinor: minorString,
  feeMinor: minorString,
  recipientName: z.string().min(1),
});
const refusalSchema = z.object({ success: z.literal(false), code: z.string(), message: z.string().optional() });

export function createQuotesClient(settings: { baseUrl: string; timeoutMs: number; breaker: BreakerSettings }, logger: Logger): QuotesClient {
  const http = createInternalJsonClient({ baseUrl: settings.baseUrl });
  const breaker = withBreaker(
    'quotes',
    (quoteId: string, partnerId: string, timeoutMs: number, requestId?: string) =>
      postJson('quotes', http, {
        path: `/internal/quotes/${encodeURIComponent(quoteId)}/consume`,
        body: { partnerId, type: 'disbursement' },
        timeoutMs,
        requestId,
      }),
    settings.breaker,
    logger,
  );
  return {
    consume: async ({ quoteId, partnerId, deadline, requestId }) => {
      const answer = await breaker.fire(quoteId, partnerId, Math.min(settings.timeoutMs, deadline.remainingMs()), requestId);
      if (answer.status === 200) {
        const parsed = consumedSchema.safeParse(answer.body);
        if (parsed.success) return parsed.data;
        logger.error({ issues: parsed.error.issues }, 'quote consumption answer does not match the contract');
        throw new PkcError('PKC_7002');
      }
      const refusal = refusalSchema.safeParse(answer.body);
      if (refusal.success && isPkcCode(refusal.data.code) && refusalCodesPassedOn.has(refusal.data.code)) {
        throw new PkcError(refusal.data.code, refusal.data.message);
      }
      logger.error({ status: answer.status, body: answer.body }, 'quote consumption refused outside the contract');
      throw new PkcError('PKC_7002');
    },
    shutdown: () => {
      breaker.shutdown();
      http.close();
    },
  };
}
