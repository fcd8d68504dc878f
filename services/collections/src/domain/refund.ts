import { randomBytes } from 'node:crypto';
import type { RefundStatus } from '@pwa/contracts';
import type { Currency, MinorUnits } from '@pwa/money';
import type { Collection } from './collection';

/**
 * A refund of a completed collection as the store returns it (issue 19, decision 0052): the
 * partner's account is debited and the user's wallet credited the refund's amount, in one
 * balanced wallet posting whose transferId is the refund's id. The collection's fee is not given
 * back. Statuses: processing (reserved, posting under way or waiting for the recovery worker),
 * completed (posted), failed (the wallet refused or never posted; the amount is refundable again).
 */
export interface Refund {
  id: string;
  referenceId: string;
  collectionId: string;
  /** The refunded collection's PKC-… and its refunded total as read with this refund. */
  collectionReferenceId: string;
  collectionRefundedMinor: MinorUnits;
  partnerId: string;
  externalId: string;
  phone: string;
  currency: Currency;
  amountMinor: MinorUnits;
  reason: string | null;
  status: RefundStatus;
  createdAt: Date;
  resolvedAt: Date | null;
  transactionId: string | null;
  failureCode: string | null;
  failureMessage: string | null;
  postingAttempts: number;
}

/**
 * A refund's public id: PKR-<creation time in ms>-<24 UPPERCASE HEX> (12 random bytes), the
 * refundReferenceIdPattern of @pwa/contracts. Ownership is still checked on every read.
 */
export function newRefundReferenceId(now: Date = new Date(), random: (size: number) => Buffer = randomBytes): string {
  return `PKR-${now.getTime()}-${random(12).toString('hex').toUpperCase()}`;
}

/** What can still be refunded of a collection: its amount less the refunds in progress or completed. */
export function refundableMinorOf(collection: Pick<Collection, 'amountMinor' | 'refundedMinor'>): MinorUnits {
  return collection.amountMinor - collection.refundedMinor;
}
