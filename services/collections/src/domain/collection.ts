import type { Currency } from '@pwa/money';
import type { CollectionStatus } from './collection-state-machine';

/** A collection request as the store returns it: plain data, amounts in minor units. */
export interface Collection {
  id: string;
  referenceId: string;
  partnerId: string;
  externalId: string;
  quoteId: string;
  phone: string;
  recipientName: string;
  currency: Currency;
  amountMinor: bigint;
  feeMinor: bigint;
  note: string | null;
  status: CollectionStatus;
  expiresAt: Date;
  createdAt: Date;
  approvedAt: Date | null;
  resolvedAt: Date | null;
  transactionId: string | null;
  failureCode: string | null;
  /** The partner message of the failure (failed only; null on rows that failed before it was stored). */
  failureMessage: string | null;
  postingAttempts: number;
  /** The sum of the collection's refunds in progress or completed (0 unless completed); never above amountMinor. */
  refundedMinor: bigint;
}

export function totalDebitMinorOf(collection: Pick<Collection, 'amountMinor' | 'feeMinor'>): bigint {
  return collection.amountMinor + collection.feeMinor;
}
