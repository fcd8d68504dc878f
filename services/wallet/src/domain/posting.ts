import type { Currency } from '@pwa/money';
import type { MovementType } from './transaction-type';

/**
 * How each kind of transfer moves money, as the legs of one double-entry posting. A leg names the
 * role of an account, not the account itself; the use case resolves roles to ledger accounts.
 * Every posting built here sums to zero (the database checks it again at commit).
 */
export type PostingKind = MovementType | 'reversal' | 'funding' | 'funding_correction' | 'sandbox_credit';

/** Kinds that never carry a fee: a refund and a reversal leave the original fee earned (decision 0053). */
const feeFreeKinds: ReadonlySet<PostingKind> = new Set<PostingKind>(['funding', 'funding_correction', 'sandbox_credit', 'refund', 'reversal']);

export type AccountRole = 'user_wallet' | 'partner' | 'fee_revenue' | 'funding';

export interface PostingLeg {
  role: AccountRole;
  /** Positive credits the account, negative debits it; never zero. */
  amountMinor: bigint;
}

export interface PostingRequest {
  kind: PostingKind;
  currency: Currency;
  amountMinor: bigint;
  feeMinor: bigint;
}

export interface Posting {
  currency: Currency;
  legs: PostingLeg[];
}

/**
 * collection:     user wallet -(amount+fee), partner +amount, fee revenue +fee
 * disbursement:   partner -(amount+fee), user wallet +amount, fee revenue +fee
 * refund:         partner -amount, user wallet +amount (a completed collection's money going back)
 * reversal:       user wallet -amount, partner +amount (the operator undoing a disbursement sent in error)
 * funding:        funding -amount, partner +amount (a partner's bank transfer arriving)
 * funding_correction: partner -amount, funding +amount (an approved correction of a funding, its own opposite posting)
 * sandbox_credit: funding -amount, user wallet +amount
 * A zero fee has no leg, since an entry of zero would record nothing.
 */
export function buildPosting(request: PostingRequest): Posting {
  const { amountMinor, feeMinor } = request;
  if (amountMinor <= 0n) throw new RangeError('a posting moves a positive amount');
  if (feeMinor < 0n) throw new RangeError('a fee is never negative');
  if (feeMinor !== 0n && feeFreeKinds.has(request.kind)) {
    throw new RangeError(`a ${request.kind} posting carries no fee`);
  }
  const totalMinor = amountMinor + feeMinor;
  const feeLegs: PostingLeg[] = feeMinor === 0n ? [] : [{ role: 'fee_revenue', amountMinor: feeMinor }];
  switch (request.kind) {
    case 'collection':
      return legsOf(request, [{ role: 'user_wallet', amountMinor: -totalMinor }, { role: 'partner', amountMinor }, ...feeLegs]);
    case 'disbursement':
      return legsOf(request, [{ role: 'partner', amountMinor: -totalMinor }, { role: 'user_wallet', amountMinor }, ...feeLegs]);
    case 'refund':
      return legsOf(request, [{ role: 'partner', amountMinor: -amountMinor }, { role: 'user_wallet', amountMinor }]);
    case 'reversal':
      return legsOf(request, [{ role: 'user_wallet', amountMinor: -amountMinor }, { role: 'partner', amountMinor }]);
    case 'funding':
      return legsOf(request, [{ role: 'funding', amountMinor: -amountMinor }, { role: 'partner', amountMinor }]);
    case 'funding_correction':
      return legsOf(request, [{ role: 'partner', amountMinor: -amountMinor }, { role: 'funding', amountMinor }]);
    case 'sandbox_credit':
      return legsOf(request, [{ role: 'funding', amountMinor: -amountMinor }, { role: 'user_wallet', amountMinor }]);
  }
}

function legsOf(request: PostingRequest, legs: PostingLeg[]): Posting {
  return { currency: request.currency, legs };
}

export function postingSumMinor(posting: Posting): bigint {
  return posting.legs.reduce((sum, leg) => sum + leg.amountMinor, 0n);
}
