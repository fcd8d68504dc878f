import type { BulkQuoteItem, BulkQuoteItemResult, WalletTransferBatchCheckResult } from '@pwa/contracts';
import type { PkcCode } from '@pwa/errors';
import type { Currency, MinorUnits } from '@pwa/money';
import { calculateFeeMinor } from './fee-calculation';
import type { FeeRule } from './fee-schedule';

/** One item of a bulk with its fee under the disbursement schedule in force. */
export interface PricedBulkItem extends BulkQuoteItem {
  feeMinor: MinorUnits;
}

/** An item the wallet's batch check passed: stored with the bulk quote, its fee fixed. */
export interface ValidBulkItem {
  index: number;
  /** The wallet's normalised form (+231…). */
  phone: string;
  recipientName: string;
  amountMinor: MinorUnits;
  feeMinor: MinorUnits;
  externalId: string;
  note: string | null;
}

/** What a bulk quote comes to once priced and checked. */
export type BulkQuoteDecision =
  /** The partner's balance does not cover the valid items' total debit: the whole call is refused and nothing stored. */
  | { kind: 'refused'; code: PkcCode; totalDebitMinor: MinorUnits }
  /** No item passed: answered, with nothing stored. */
  | { kind: 'nothing_valid'; results: BulkQuoteItemResult[] }
  /** At least one item passed and the balance covers them: stored with its valid items. */
  | { kind: 'store'; results: BulkQuoteItemResult[]; validItems: ValidBulkItem[]; totalDebitMinor: MinorUnits };

/** Every item priced with one schedule (the same function a single quote is priced with). */
export function priceBulkItems(rule: FeeRule, items: readonly BulkQuoteItem[]): PricedBulkItem[] {
  return items.map((item) => ({ ...item, feeMinor: calculateFeeMinor(rule, item.amountMinor) }));
}

/**
 * Pure: joins the priced items with the wallet's per-item check results (one per item, in the
 * same order), and weighs the total debit (amount plus fee) of the items that passed against the
 * partner's balance. Results keep the request's order.
 */
export function decideBulkQuote(
  items: readonly PricedBulkItem[],
  checks: readonly WalletTransferBatchCheckResult[],
  partnerBalanceMinor: MinorUnits,
): BulkQuoteDecision {
  if (checks.length !== items.length) throw new RangeError(`${items.length} items but ${checks.length} check results`);
  const results: BulkQuoteItemResult[] = [];
  const validItems: ValidBulkItem[] = [];
  let totalDebitMinor = 0n;
  items.forEach((item, position) => {
    const check = checks[position] as WalletTransferBatchCheckResult;
    if (check.outcome === 'refused') {
      results.push({ index: item.index, outcome: 'invalid', code: check.code });
      return;
    }
    results.push({ index: item.index, outcome: 'valid', feeMinor: item.feeMinor, recipientName: check.recipientName });
    validItems.push({
      index: item.index,
      phone: check.phone,
      recipientName: check.recipientName,
      amountMinor: item.amountMinor,
      feeMinor: item.feeMinor,
      externalId: item.externalId,
      note: item.note,
    });
    totalDebitMinor += item.amountMinor + item.feeMinor;
  });
  if (validItems.length === 0) return { kind: 'nothing_valid', results };
  if (totalDebitMinor > partnerBalanceMinor) return { kind: 'refused', code: 'PKC_4002', totalDebitMinor };
  return { kind: 'store', results, validItems, totalDebitMinor };
}

/** A bulk quote about to be stored; the database sets its times from its own clock. */
export interface NewBulkQuote {
  bulkQuoteId: string;
  partnerId: string;
  currency: Currency;
  feeScheduleRevision: number;
  partnerBalanceMinor: MinorUnits;
  items: readonly ValidBulkItem[];
}

/** A bulk quote the conditional update has just marked used, with its items ordered by index. */
export interface ConsumedBulkQuote {
  bulkQuoteId: string;
  partnerId: string;
  currency: Currency;
  expiresAt: Date;
  usedAt: Date;
  items: ValidBulkItem[];
}
