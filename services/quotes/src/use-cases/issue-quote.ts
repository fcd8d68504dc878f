import { randomUUID } from 'node:crypto';
import type { Pool } from '@pwa/db';
import type { Currency } from '@pwa/money';
import { calculateFeeMinor } from '../domain/fee-calculation';
import type { Quote } from '../domain/quote';
import { validateQuoteRequest } from '@pwa/contracts';
import type { QuoteType } from '../domain/quote-type';
import { withScheduleInForce, type FeeScheduleCache } from '../store/fee-schedule-cache';
import { insertQuoteIfRevisionCurrent } from '../store/quote-store';
import type { WalletChecks } from './wallet-checks';

export interface QuoteSettings {
  lifetimeSeconds: number;
  enabledCurrencies: Readonly<Record<QuoteType, readonly Currency[]>>;
}

export interface IssueQuoteDependencies {
  pool: Pool;
  wallet: WalletChecks;
  settings: QuoteSettings;
  feeSchedules: FeeScheduleCache;
}

/**
 * The story of a quote: check the body, price it with the schedule in force, let the wallet run
 * every account, balance and limit check on amount plus fee (read-only: a quote consumes no limit
 * budget), and only then store it with the fee fixed. Any refusal on the way stores nothing. The
 * schedule comes from a cache, but a quote is stored only if its revision is still in force; one
 * priced with a replaced revision is priced (and checked) again with the new one.
 */
export async function issueQuote(
  dependencies: IssueQuoteDependencies,
  type: QuoteType,
  partnerId: string,
  body: unknown,
  requestId?: string,
): Promise<Quote> {
  const { pool, wallet, settings, feeSchedules } = dependencies;
  const request = validateQuoteRequest(body, settings.enabledCurrencies[type]);
  return withScheduleInForce(feeSchedules, type, request.currency, async (schedule) => {
    const feeMinor = calculateFeeMinor(schedule, request.amountMinor);
    const checked = await wallet.check({ type, partnerId, ...request, feeMinor, ...(requestId ? { requestId } : {}) });
    return insertQuoteIfRevisionCurrent(
      pool,
      {
        quoteId: randomUUID(),
        partnerId,
        type,
        phone: request.phone,
        currency: request.currency,
        amountMinor: request.amountMinor,
        feeMinor,
        recipientName: checked.recipient.name,
        recipientAccountStatus: checked.recipient.accountStatus,
        recipientHasWallet: checked.recipient.hasWallet,
        partnerBalanceMinor: checked.partnerBalanceMinor,
        feeScheduleRevision: schedule.revision,
      },
      settings.lifetimeSeconds,
    );
  });
}
