import { formatMinor, toApiAmount } from '@pwa/money';
import type { Quote } from './quote';

/** The spec's collection approval window, shown on every collection quote. */
export const approvalWindowMinutes = 10;

export interface CollectionQuoteView {
  quoteId: string;
  recipient: { name: string; phone: string; accountStatus: string };
  amount: number;
  currency: string;
  fee: number;
  totalDebit: number;
  sufficientBalance: true;
  approvalWindowMinutes: number;
  note: string;
}

export interface DisbursementQuoteView {
  quoteId: string;
  recipient: { name: string; phone: string; accountStatus: string; hasWallet: boolean };
  amount: number;
  currency: string;
  fee: number;
  totalDebit: number;
  partnerBalance: number;
  sufficientBalance: true;
  note: string;
}

/** The collection quote exactly as the spec lists its fields; amounts are JSON numbers with at most 2 decimals. */
export function collectionQuoteView(quote: Quote, lifetimeSeconds: number): CollectionQuoteView {
  const money = (minor: bigint): string => `${formatMinor(minor)} ${quote.currency}`;
  return {
    quoteId: quote.quoteId,
    recipient: { name: quote.recipientName, phone: quote.phone, accountStatus: quote.recipientAccountStatus },
    amount: toApiAmount(quote.amountMinor),
    currency: quote.currency,
    fee: toApiAmount(quote.feeMinor),
    totalDebit: toApiAmount(quote.totalDebitMinor),
    // A quote exists only when every check passed, balance included; the field stays for old clients.
    sufficientBalance: true,
    approvalWindowMinutes,
    note:
      `Collect ${money(quote.amountMinor)} from ${quote.recipientName} (${quote.phone}); fee ${money(quote.feeMinor)}, ` +
      `${money(quote.totalDebitMinor)} in total will be debited from the user's wallet once approved. ` +
      `The user has ${approvalWindowMinutes} minutes to approve after the request; this quote is valid for ${lifetimeText(lifetimeSeconds)}.`,
  };
}

/** The disbursement quote exactly as the spec lists its fields; the note says what remains after the transfer. */
export function disbursementQuoteView(quote: Quote, lifetimeSeconds: number): DisbursementQuoteView {
  const money = (minor: bigint): string => `${formatMinor(minor)} ${quote.currency}`;
  const remainingMinor = quote.partnerBalanceMinor - quote.totalDebitMinor;
  return {
    quoteId: quote.quoteId,
    recipient: {
      name: quote.recipientName,
      phone: quote.phone,
      accountStatus: quote.recipientAccountStatus,
      hasWallet: quote.recipientHasWallet,
    },
    amount: toApiAmount(quote.amountMinor),
    currency: quote.currency,
    fee: toApiAmount(quote.feeMinor),
    totalDebit: toApiAmount(quote.totalDebitMinor),
    partnerBalance: toApiAmount(quote.partnerBalanceMinor),
    sufficientBalance: true,
    note:
      `Send ${money(quote.amountMinor)} to ${quote.recipientName} (${quote.phone}); fee ${money(quote.feeMinor)}, ` +
      `${money(quote.totalDebitMinor)} in total will be debited from your balance of ${money(quote.partnerBalanceMinor)}, ` +
      `leaving ${money(remainingMinor)}. This quote is valid for ${lifetimeText(lifetimeSeconds)}.`,
  };
}

/** "10 minutes" for the spec's lifetime; shortened test lifetimes are said in seconds rather than rounded. */
export function lifetimeText(lifetimeSeconds: number): string {
  if (lifetimeSeconds % 60 === 0) return lifetimeSeconds === 60 ? '1 minute' : `${lifetimeSeconds / 60} minutes`;
  return lifetimeSeconds === 1 ? '1 second' : `${lifetimeSeconds} seconds`;
}
