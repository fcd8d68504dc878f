import { randomUUID } from 'node:crypto';
import { bulkQuoteRequestSchema, type BulkQuoteItemResult } from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import { PkcError, alternatives, invalidFieldError } from '@pwa/errors';
import type { Currency, MinorUnits } from '@pwa/money';
import { decideBulkQuote, priceBulkItems } from '../domain/bulk-quote';
import { withScheduleInForce, type FeeScheduleCache } from '../store/fee-schedule-cache';
import { insertBulkQuoteIfRevisionCurrent } from '../store/bulk-quote-store';
import type { QuoteSettings } from './issue-quote';
import type { WalletChecks } from './wallet-checks';

export interface IssueBulkQuoteDependencies {
  pool: Pool;
  wallet: WalletChecks;
  settings: QuoteSettings;
  feeSchedules: FeeScheduleCache;
}

/** A bulk quote as answered: bulkQuoteId undefined when no item was valid (then nothing was stored). */
export interface IssuedBulkQuote {
  bulkQuoteId: string | null;
  currency: Currency;
  expiresAt: Date;
  partnerBalanceMinor: MinorUnits;
  items: BulkQuoteItemResult[];
}

/**
 * The story of a bulk quote (issue 20), for the disbursements service, which has already checked
 * each item's own fields: price every item with the disbursement schedule in force, let the wallet
 * check the whole bulk in one read-only call (account, wallet, KYC, limits per item), weigh the
 * passing items' total debit against the partner's balance (PKC_4002 for the whole call), and only
 * then store the bulk quote with its valid items, in one statement, if the schedule's revision is
 * still in force (priced and checked again with the new one otherwise, as a single quote is).
 * Nothing is consumed and any refusal stores nothing.
 */
export async function issueBulkQuote(dependencies: IssueBulkQuoteDependencies, body: unknown, requestId?: string): Promise<IssuedBulkQuote> {
  const { pool, wallet, settings, feeSchedules } = dependencies;
  const parsed = bulkQuoteRequestSchema.safeParse(body);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || 'body'))].slice(0, 5);
    throw new PkcError('PKC_2008', `Invalid bulk quote fields: ${fields.join(', ')}`);
  }
  const request = parsed.data;
  const enabled = settings.enabledCurrencies.disbursement;
  if (!enabled.includes(request.currency)) {
    throw invalidFieldError('PKC_2010', 'currency', 'not_allowed', enabled.length === 0 ? 'none is enabled for this operation' : alternatives(enabled), { lead: `${request.currency} is not supported for this operation` });
  }
  return withScheduleInForce(feeSchedules, 'disbursement', request.currency, async (schedule): Promise<IssuedBulkQuote | undefined> => {
    const priced = priceBulkItems(schedule, request.items);
    const checked = await wallet.checkBatch({ partnerId: request.partnerId, currency: request.currency, items: priced, ...(requestId ? { requestId } : {}) });
    const decision = decideBulkQuote(priced, checked.results, checked.partnerBalanceMinor);
    if (decision.kind === 'refused') throw new PkcError(decision.code);
    const answered = { currency: request.currency, partnerBalanceMinor: checked.partnerBalanceMinor, items: decision.results };
    if (decision.kind === 'nothing_valid') return { ...answered, bulkQuoteId: null, expiresAt: new Date(Date.now() + settings.lifetimeSeconds * 1_000) };
    const stored = await insertBulkQuoteIfRevisionCurrent(
      pool,
      {
        bulkQuoteId: randomUUID(),
        partnerId: request.partnerId,
        currency: request.currency,
        feeScheduleRevision: schedule.revision,
        partnerBalanceMinor: checked.partnerBalanceMinor,
        items: decision.validItems,
      },
      settings.lifetimeSeconds,
    );
    return stored && { ...answered, bulkQuoteId: stored.bulkQuoteId, expiresAt: stored.expiresAt };
  });
}
