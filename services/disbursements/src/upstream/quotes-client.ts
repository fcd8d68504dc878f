import { consumedQuoteAnswerSchema, quoteConsumeBody, quotesPaths, readContractAnswer } from '@pwa/contracts';
import { PkcError, type PkcCode } from '@pwa/errors';
import { createUpstreamClient, type UpstreamSettings } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import type { Currency } from '@pwa/money';
import type { Deadline } from '../domain/deadline';

/** What quotes answers when a disbursement quote is consumed (libs/contracts internal/quotes). */
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

/**
 * The quote refusals a transfer passes on as they are: not a UUID (2009), unknown or expired
 * (5001), already used (5002), wrong type (5003), another partner's (5004); as for collections.
 */
export const disbursementQuoteRefusalsPassedOn: ReadonlySet<PkcCode> = new Set<PkcCode>(['PKC_2009', 'PKC_5001', 'PKC_5002', 'PKC_5003', 'PKC_5004']);

export function createQuotesClient(settings: UpstreamSettings, logger: Logger): QuotesClient {
  const quotes = createUpstreamClient({ name: 'quotes', ...settings, logger });
  return {
    consume: async ({ quoteId, partnerId, deadline, requestId }) => {
      const answer = await quotes.post(quotesPaths.consume(quoteId), quoteConsumeBody(partnerId, 'disbursement'), {
        timeoutMs: Math.min(settings.timeoutMs, deadline.remainingMs()),
        requestId,
      });
      const read = readContractAnswer(answer, consumedQuoteAnswerSchema, disbursementQuoteRefusalsPassedOn);
      if (read.kind === 'answer' && read.data.type === 'disbursement') return read.data;
      if (read.kind === 'refusal') throw new PkcError(read.code, read.message);
      logger.error({ status: answer.status, body: answer.body, problem: read.kind === 'answer' ? 'a quote of another type' : read.problem }, 'quote consumption answer outside the contract');
      throw new PkcError('PKC_7002');
    },
    shutdown: () => quotes.shutdown(),
  };
}
