import {
  bulkQuoteAnswerSchema,
  consumedBulkQuoteAnswerSchema,
  consumedQuoteAnswerSchema,
  quoteConsumeBody,
  quotesPaths,
  passedOnRefusal,
  readContractAnswer,
  type BulkQuoteAnswer,
  type ConsumedBulkQuoteAnswer,
  type ContractAnswer,
} from '@pwa/contracts';
import { PkcError, type PkcCode } from '@pwa/errors';
import { createUpstreamClient, type UpstreamSettings } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import { minorUnitsText, type Currency } from '@pwa/money';
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

/** One bulk item for quotes to price and check: its own fields already passed (decision 0055). */
export interface BulkItemToQuote {
  index: number;
  phone: string;
  amountMinor: bigint;
  externalId: string;
  note: string | null;
}

export interface QuotesClient {
  /** Uses the quote once; throws PkcError with the quote's refusal code, or UpstreamFailure. */
  consume(request: { quoteId: string; partnerId: string; deadline: Deadline; requestId?: string }): Promise<ConsumedQuote>;
  /** Prices, checks and stores a bulk quote; throws PkcError (2010, 4002) or UpstreamFailure. */
  issueBulkQuote(request: { partnerId: string; currency: Currency; items: readonly BulkItemToQuote[]; requestId?: string }): Promise<BulkQuoteAnswer>;
  /** Uses the bulk quote once; throws PkcError with its refusal code (2009, 5001, 5002, 5004), or UpstreamFailure. */
  consumeBulkQuote(request: { bulkQuoteId: string; partnerId: string; requestId?: string }): Promise<ConsumedBulkQuoteAnswer>;
  shutdown(): void;
}

/** What quotes may refuse a bulk quote with, passed on to the partner as they are. */
const bulkQuoteRefusalsPassedOn: ReadonlySet<PkcCode> = new Set<PkcCode>(['PKC_2010', 'PKC_4002']);

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
      if (read.kind === 'refusal') throw passedOnRefusal(read);
      logger.error({ status: answer.status, body: answer.body, problem: read.kind === 'answer' ? 'a quote of another type' : read.problem }, 'quote consumption answer outside the contract');
      throw new PkcError('PKC_7002');
    },
    issueBulkQuote: async ({ partnerId, currency, items, requestId }) => {
      const body = {
        partnerId,
        currency,
        items: items.map((item) => ({ index: item.index, phone: item.phone, amountMinor: minorUnitsText(item.amountMinor), externalId: item.externalId, note: item.note })),
      };
      const answer = await quotes.post(quotesPaths.bulkQuotes, body, { timeoutMs: settings.timeoutMs, requestId });
      return passedOnOrThrow(readContractAnswer(answer, bulkQuoteAnswerSchema, bulkQuoteRefusalsPassedOn), answer, 'bulk quote');
    },
    consumeBulkQuote: async ({ bulkQuoteId, partnerId, requestId }) => {
      const answer = await quotes.post(quotesPaths.consumeBulkQuote(bulkQuoteId), { partnerId }, { timeoutMs: settings.timeoutMs, requestId });
      return passedOnOrThrow(readContractAnswer(answer, consumedBulkQuoteAnswerSchema, disbursementQuoteRefusalsPassedOn), answer, 'bulk quote consumption');
    },
    shutdown: () => quotes.shutdown(),
  };

  function passedOnOrThrow<T>(read: ContractAnswer<T>, answer: { status: number; body: unknown }, what: string): T {
    if (read.kind === 'answer') return read.data;
    if (read.kind === 'refusal') throw passedOnRefusal(read);
    logger.error({ status: answer.status, body: answer.body, problem: read.problem }, `${what} answer outside the contract`);
    throw new PkcError('PKC_7002');
  }
}
