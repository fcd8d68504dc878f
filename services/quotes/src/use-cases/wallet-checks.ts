import type { WalletTransferBatchCheckAnswer } from '@pwa/contracts';
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
  /**
   * The wallet's read-only check of a whole bulk of disbursements, in one call: one result per
   * item in the request's order (passed or refused with its code) and the partner's balance,
   * which the caller weighs. Rejects with PKC_7003 when the wallet cannot answer.
   */
  checkBatch(request: WalletBatchCheckRequest): Promise<WalletTransferBatchCheckAnswer>;
}

export interface WalletBatchCheckRequest {
  partnerId: string;
  currency: Currency;
  items: readonly { phone: string; amountMinor: MinorUnits; feeMinor: MinorUnits }[];
  requestId?: string;
}
