import type { BulkQuoteAnswer } from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import { errorFieldsOf, PkcError, type ErrorFields, type PkcCode } from '@pwa/errors';
import { isUpstreamFailure } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import { toApiAmount, type Currency } from '@pwa/money';
import { invalidItem, parseBulkQuoteRequest, type BulkItemCheck, type CheckedBulkItem } from '../domain/bulk-quote-request';
import { failureMessageFor } from '../domain/failure-reason';
import { heldExternalIds } from '../store/bulk-store';
import type { QuotesClient } from '../upstream/quotes-client';

export interface QuoteBulkDependencies {
  pool: Pool;
  quotes: QuotesClient;
  logger: Logger;
}

export type BulkQuoteItemView =
  | { index: number; externalId: string; status: 'valid'; phone: string; recipientName: string; amount: number; fee: number; totalDebit: number }
  | { index: number; externalId: string | null; status: 'invalid'; failureReason: ErrorFields & { code: string; message: string } };

export interface BulkQuoteView {
  bulkQuoteId: string;
  currency: Currency;
  expiresAt: string;
  itemCount: number;
  validCount: number;
  invalidCount: number;
  totalAmount: number;
  totalFee: number;
  totalDebit: number;
  partnerBalance: number;
  items: BulkQuoteItemView[];
}

/**
 * The bulk quote, as a story (decision 0055): check the body and every item's own fields; refuse
 * the items whose externalId a pending or completed disbursement of the partner holds; have quotes
 * price the rest, run the wallet's checks on them and store the bulk quote (quotes refuses the
 * whole call with PKC_4002 when the partner's balance does not cover the valid items). A bulk none
 * of whose items is valid is 400 PKC_2008 carrying every item's result; nothing is stored then.
 */
export async function quoteBulk(dependencies: QuoteBulkDependencies, input: { partnerId: string; body: unknown; requestId?: string }): Promise<BulkQuoteView> {
  const request = parseBulkQuoteRequest(input.body);
  const items = await refuseHeldExternalIds(dependencies.pool, input.partnerId, request.items);
  const toQuote = items.filter((item): item is CheckedBulkItem => item.outcome === 'checked');
  if (toQuote.length === 0) throw noValidItem(items.flatMap((item) => (item.outcome === 'invalid' ? [invalidView(item)] : [])));
  const answer = await issueBulkQuote(dependencies, { partnerId: input.partnerId, currency: request.currency, items: toQuote, requestId: input.requestId });
  const views = mergedViews(items, answer);
  if (answer.bulkQuoteId === null) throw noValidItem(views);
  return quoteView(answer.bulkQuoteId, answer, views, totalsOf(toQuote, answer));
}

async function refuseHeldExternalIds(pool: Pool, partnerId: string, items: readonly BulkItemCheck[]): Promise<BulkItemCheck[]> {
  const checked = items.flatMap((item) => (item.outcome === 'checked' ? [item.externalId] : []));
  const held = await heldExternalIds(pool, partnerId, checked);
  return items.map((item) => {
    const holder = item.outcome === 'checked' ? held.get(item.externalId) : undefined;
    return holder === undefined ? item : invalidItem(item, 'PKC_6001', `externalId already used by disbursement ${holder}`);
  });
}

async function issueBulkQuote(
  dependencies: QuoteBulkDependencies,
  request: { partnerId: string; currency: Currency; items: readonly CheckedBulkItem[]; requestId?: string },
): Promise<BulkQuoteAnswer> {
  try {
    return await dependencies.quotes.issueBulkQuote(request);
  } catch (error) {
    if (!isUpstreamFailure(error)) throw error;
    dependencies.logger.warn({ err: error }, 'bulk quote got no answer from quotes');
    throw new PkcError('PKC_7003', undefined, { cause: error });
  }
}

function mergedViews(items: readonly BulkItemCheck[], answer: BulkQuoteAnswer): BulkQuoteItemView[] {
  const quoted = new Map(answer.items.map((result) => [result.index, result]));
  return items.map((item): BulkQuoteItemView => {
    if (item.outcome === 'invalid') return invalidView(item);
    const result = quoted.get(item.index);
    if (result === undefined) throw new Error(`quotes did not answer item ${item.index}`);
    if (result.outcome === 'invalid') return invalidView(invalidItem(item, result.code as PkcCode, failureMessageFor(result.code)));
    return {
      index: item.index,
      externalId: item.externalId,
      status: 'valid',
      phone: item.phone,
      recipientName: result.recipientName,
      amount: toApiAmount(item.amountMinor),
      fee: toApiAmount(result.feeMinor),
      totalDebit: toApiAmount(item.amountMinor + result.feeMinor),
    };
  });
}

function invalidView(item: Extract<BulkItemCheck, { outcome: 'invalid' }>): BulkQuoteItemView {
  // invalidFields only for a refusal of the item's own fields, written as a refusal writes them.
  const invalidFields = item.invalidFields === undefined ? {} : errorFieldsOf(item.invalidFields);
  return { index: item.index, externalId: item.externalId, status: 'invalid', failureReason: { code: item.code, message: item.message, ...invalidFields } };
}

function quoteView(bulkQuoteId: string, answer: BulkQuoteAnswer, items: BulkQuoteItemView[], totals: { amountMinor: bigint; feeMinor: bigint }): BulkQuoteView {
  const validCount = items.filter((item) => item.status === 'valid').length;
  return {
    bulkQuoteId,
    currency: answer.currency,
    expiresAt: new Date(answer.expiresAt).toISOString(),
    itemCount: items.length,
    validCount,
    invalidCount: items.length - validCount,
    totalAmount: toApiAmount(totals.amountMinor),
    totalFee: toApiAmount(totals.feeMinor),
    totalDebit: toApiAmount(totals.amountMinor + totals.feeMinor),
    partnerBalance: toApiAmount(answer.partnerBalanceMinor),
    items,
  };
}

/** The valid items' amounts and fees added up in minor units (major units are only for the answer). */
function totalsOf(quoted: readonly CheckedBulkItem[], answer: BulkQuoteAnswer): { amountMinor: bigint; feeMinor: bigint } {
  const fees = new Map(answer.items.flatMap((result) => (result.outcome === 'valid' ? [[result.index, result.feeMinor] as const] : [])));
  return quoted.reduce(
    (totals, item) => {
      const feeMinor = fees.get(item.index);
      return feeMinor === undefined ? totals : { amountMinor: totals.amountMinor + item.amountMinor, feeMinor: totals.feeMinor + feeMinor };
    },
    { amountMinor: 0n, feeMinor: 0n },
  );
}

/** A bulk none of whose items passed: 400 PKC_5005 (a business outcome, not a malformed body; decision 0075) with every item's result. */
function noValidItem(items: readonly BulkQuoteItemView[]): PkcError {
  return new PkcError('PKC_5005', 'No item of the bulk is valid; nothing was quoted; items holds each item’s reason', { fields: { items: items.map((item) => ({ ...item })) } });
}
