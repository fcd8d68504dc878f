import { randomUUID } from 'node:crypto';
import type { Pool } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import type { Currency } from '@pwa/money';
import { calculateFeeMinor } from '../domain/fee-calculation';
import type { Quote } from '../domain/quote';
import { validateQuoteRequest } from '../domain/quote-request';
import type { QuoteType } from '../domain/quote-type';
import { findFeeSchedule } from '../store/fee-schedule-store';
import { insertQuote } from '../store/quote-store';
import type { WalletChecks } from './wallet-checks';

export interface QuoteSettings {
  lifetimeSeconds: number;
  enabledCurrencies: Readonly<Record<QuoteType, readonly Currency[]>>;
}

export interface IssueQuoteDependencies {
  pool: Pool;
  wallet: WalletChecks;
  settings: QuoteSettings;
}

/**
 * The story of a quote: check the body, price it with the schedule in force, let the wallet run
 * every account, balance and limit check on amount plus fee (read-only: a quote consumes no limit
 * budget), and only then store it with the fee fixed. Any refusal on the way stores nothing.
 */
export async function issueQuote(
  dependencies: IssueQuoteDependencies,
  type: QuoteType,
  partnerId: string,
  body: unknown,
  requestId?: string,
): Promise<Quote> {
  const { pool, wallet, settings } = dependencies;
  const request = validateQuoteRequest(body, settings.enabledCurrencies[type]);
  const schedule = await findFeeSchedule(pool, type, request.currency);
  if (!schedule) throw new PkcError('PKC_7002', `No fee schedule for ${type} in ${request.currency}`);
  const feeMinor = calculateFeeMinor(schedule, request.amountMinor);
  const checked = await wallet.check({ type, partnerId, ...request, feeMinor, ...(requestId ? { requestId } : {}) });
  return insertQuote(
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
}
