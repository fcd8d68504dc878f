import type { Currency, MinorUnits } from '@pwa/money';
import type { QuoteType } from './quote-type';

/** What the wallet said about the recipient and the balances when the quote was checked. */
export interface WalletCheckResult {
  recipient: { name: string; phone: string; accountStatus: string; kycStatus: string; hasWallet: boolean };
  userBalanceMinor: MinorUnits;
  partnerBalanceMinor: MinorUnits;
}

/** A quote as stored: the priced, checked request of one partner, usable once before it expires. */
export interface Quote {
  quoteId: string;
  partnerId: string;
  type: QuoteType;
  phone: string;
  currency: Currency;
  amountMinor: MinorUnits;
  feeMinor: MinorUnits;
  totalDebitMinor: MinorUnits;
  recipientName: string;
  recipientAccountStatus: string;
  recipientHasWallet: boolean;
  /** The partner's balance in the quote's currency at quote time (shown on disbursement quotes). */
  partnerBalanceMinor: MinorUnits;
  feeScheduleRevision: number;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

/** A quote about to be stored; the database sets its times from its own clock. */
export type NewQuote = Omit<Quote, 'createdAt' | 'expiresAt' | 'usedAt' | 'totalDebitMinor'>;

/** A quote the conditional update has just marked used. */
export type ConsumedQuote = Quote & { usedAt: Date };
