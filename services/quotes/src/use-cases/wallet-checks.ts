import type { Currency, MinorUnits } from '@pwa/money';
import type { WalletCheckResult } from '../domain/quote';
import type { QuoteType } from '../domain/quote-type';

export interface WalletCheckRequest {
  type: QuoteType;
  partnerId: string;
  phone: string;
  currency: Currency;
  amountMinor: MinorUnits;
  feeMinor: MinorUnits;
  /** Passed on so one partner request can be followed into the wallet's log. */
  requestId?: string;
}

/**
 * The wallet's read-only pre-validation: account, wallet, balance (amount plus fee) and limits.
 * It resolves when every rule passes and rejects with the PkcError of the first failing rule, or
 * with PKC_7003 when the wallet cannot answer.
 */
export interface WalletChecks {
  check(request: WalletCheckRequest): Promise<WalletCheckResult>;
}
