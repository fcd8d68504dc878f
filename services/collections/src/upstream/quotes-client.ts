import { consumedQuoteAnswerSchema, passedOnRefusal, quoteConsumeBody, quotesPaths, readContractAnswer } from '@pwa/contracts';
import { PkcError, type PkcCode } from '@pwa/errors';
import { createUpstreamClient, type UpstreamSettings } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import type { Currency } from '@pwa/money';

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

/**
 * The quote refusals a collection request passes on as they are: not a UUID (2009), unknown or
 * expired (5001), already used (5002), wrong type (5003), another partner's (5004). The same set
 * as disbursements: a confirm answers for its quote exactly as quotes judged it.
 */
export const collectionQuoteRefusalsPassedOn: ReadonlySet<PkcCode> = new Set<PkcCode>(['PKC_2009', 'PKC_5001', 'PKC_5002', 'PKC_5003', 'PKC_5004']);

/** quotes POST /internal/quotes/:quoteId/consume (libs/contracts internal/quotes); unreachable → PKC_7003. */
export function createQuoteConsumer(settings: UpstreamSettings, logger: Logger): QuoteConsumer & { shutdown(): void } {
  const quotes = createUpstreamClient({ name: 'quotes', ...settings, logger });
  return {
    consume: async (quoteId, partnerId, requestId) => {
      let answer;
      try {
        answer = await quotes.post(quotesPaths.consume(quoteId), quoteConsumeBody(partnerId, 'collection'), { timeoutMs: settings.timeoutMs, requestId });
      } catch (error) {
        logger.warn({ err: error }, 'quote consumption failed; answering PKC_7003');
        throw new PkcError('PKC_7003', undefined, { cause: error });
      }
      const read = readContractAnswer(answer, consumedQuoteAnswerSchema, collectionQuoteRefusalsPassedOn);
      if (read.kind === 'answer' && read.data.type === 'collection') return read.data;
      if (read.kind === 'refusal') throw passedOnRefusal(read);
      logger.error({ status: answer.status, body: answer.body, problem: read.kind === 'answer' ? 'a quote of another type' : read.problem }, 'quote consumption answer outside the contract');
      throw new PkcError('PKC_7002');
    },
    shutdown: () => quotes.shutdown(),
  };
}
