import type { PkcCode } from '@pwa/errors';
import { decideBatch, type BatchFacts } from './batch-decisions';

/*
 * The decisions of the read-only batch check behind a bulk payout's quote (decision 0055), pure:
 * each item is decided exactly as the posting batch would decide it (decideBatch: the account,
 * wallet and KYC rules, then the limits with the user's usage counting the earlier passing items
 * of the same user, in the request's order), except that the partner's balance never refuses an
 * item here: the caller weighs the total of the passing items against the balance itself.
 */

export interface BatchCheckItemIntent {
  /** The normalised phone; undefined when the caller's text is not a Liberian mobile number (the item's PKC_2001). */
  phone: string | undefined;
  amountMinor: bigint;
  feeMinor: bigint;
}

/** The batch's facts without what a check does not weigh: it has no transfer ids, and the partner's balance is the caller's. */
export type BatchCheckFacts = Omit<BatchFacts, 'settledTransferIds' | 'partnerBalanceMinor'>;

export type BatchCheckDecision = { decision: 'passed'; userId: string } | { decision: 'refused'; code: PkcCode };

/** One decision per item, in the items' order. */
export function decideBatchCheck(items: readonly BatchCheckItemIntent[], facts: BatchCheckFacts): BatchCheckDecision[] {
  const decisions = decideBatch(
    // A check has no transfer ids: each item is named by its position, and none was settled earlier.
    items.map((item, index) => ({ transferId: String(index), ...item })),
    { ...facts, settledTransferIds: new Set(), partnerBalanceMinor: partnerBalanceCoveringEveryItem(items) },
  );
  return decisions.map((decision) => {
    switch (decision.decision) {
      case 'post':
        return { decision: 'passed', userId: decision.userId };
      case 'refused':
        return { decision: 'refused', code: decision.code };
      case 'settled_earlier':
        throw new Error('a batch check has no transfer ids, so no item can be settled earlier');
    }
  });
}

/**
 * A partner balance that no item of the batch can fail: the sum of every item's amount and fee.
 * The running balance decideBatch checks an item against starts there and only ever drops by the
 * amount and fee of the items before it that passed (a disbursement's partner leg is
 * -(amount + fee); a refund's, -amount, is smaller), so when an item is checked at least its own
 * amount + fee and those of every later item remain, which is all the balance rule (PKC_4002)
 * asks of it. A collection's balance rule is the user's wallet, which this leaves as it is.
 */
export function partnerBalanceCoveringEveryItem(items: readonly BatchCheckItemIntent[]): bigint {
  return items.reduce((sum, item) => sum + item.amountMinor + item.feeMinor, 0n);
}
