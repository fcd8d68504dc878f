import type { Currency } from '@pwa/money';
import type { PkcCode } from '@pwa/errors';
import { buildPosting } from './posting';
import { firstFailingCheck } from './transfer-checks';
import { limitedTypeOf, type MovementType } from './transaction-type';
import { noUsage, type LimitLookup, type LimitUsage } from './tier-limits';
import type { AccountStatus, KycStatus, WalletStatus } from './user';

/*
 * The decisions of a batch of postings (decision 0054), pure: given what the ledger held when the
 * batch's locks were granted, which items post, which are refused and why, and which an earlier
 * call already settled. The items are decided one by one in the request's order, and each posted
 * item changes the facts the next ones are checked against (the partner's balance, the user's
 * wallet and limit usage), so a batch refuses exactly what the same postings sent one at a time,
 * in that order, would have refused.
 */

export interface BatchItemIntent {
  transferId: string;
  /** The normalised phone; undefined when the caller's text is not a Liberian mobile number (the item's PKC_2001). */
  phone: string | undefined;
  amountMinor: bigint;
  feeMinor: bigint;
}

/** What the ledger holds for one recipient of the batch, read under the batch's locks. */
export interface BatchRecipientFacts {
  userId: string;
  accountStatus: AccountStatus;
  kycStatus: KycStatus;
  /** The user's wallet in the batch's currency, with its ledger account and balance. */
  wallet: { status: WalletStatus; accountId: string; balanceMinor: bigint } | undefined;
  /** The tier's rule; undefined for a movement without limits (a refund). */
  limits: LimitLookup | undefined;
  /** The user's usage before the batch, in the windows of the batch's clock. */
  usage: LimitUsage;
}

export interface BatchFacts {
  type: MovementType;
  currency: Currency;
  /** Transfer ids an earlier call posted or cancelled: their answer is that earlier outcome. */
  settledTransferIds: ReadonlySet<string>;
  /** Every known recipient, by normalised phone; a phone that is absent has no account (PKC_3001). */
  recipients: ReadonlyMap<string, BatchRecipientFacts>;
  /** The partner's balance before the batch; 0 when the partner has no account in the currency. */
  partnerBalanceMinor: bigint;
}

export type BatchDecision =
  | { decision: 'settled_earlier'; transferId: string }
  | { decision: 'refused'; transferId: string; code: PkcCode }
  | { decision: 'post'; transferId: string; userId: string; walletAccountId: string; amountMinor: bigint; feeMinor: bigint };

/** One decision per item, in the items' order. */
export function decideBatch(items: readonly BatchItemIntent[], facts: BatchFacts): BatchDecision[] {
  const running = new RunningFacts(facts);
  return items.map((item) => decideItem(item, facts, running));
}

function decideItem(item: BatchItemIntent, facts: BatchFacts, running: RunningFacts): BatchDecision {
  const { transferId } = item;
  if (facts.settledTransferIds.has(transferId)) return { decision: 'settled_earlier', transferId };
  if (item.phone === undefined) return { decision: 'refused', transferId, code: 'PKC_2001' };
  const recipient = facts.recipients.get(item.phone);
  const intent = { type: facts.type, currency: facts.currency, amountMinor: item.amountMinor, feeMinor: item.feeMinor };
  const code = firstFailingCheck(intent, {
    user: recipient,
    wallet: recipient?.wallet && { status: recipient.wallet.status, balanceMinor: running.walletBalanceOf(recipient) },
    partnerBalanceMinor: running.partnerBalanceMinor,
    limits: recipient?.limits,
    usage: recipient ? running.usageOf(recipient) : noUsage,
  });
  if (code !== undefined) return { decision: 'refused', transferId, code };
  if (!recipient?.wallet) throw new Error('checks passed without a recipient wallet');
  running.apply(recipient, item);
  return { decision: 'post', transferId, userId: recipient.userId, walletAccountId: recipient.wallet.accountId, amountMinor: item.amountMinor, feeMinor: item.feeMinor };
}

/** The facts as they stand after the batch's items decided so far. */
class RunningFacts {
  partnerBalanceMinor: bigint;
  private readonly walletBalances = new Map<string, bigint>();
  private readonly usages = new Map<string, LimitUsage>();

  constructor(private readonly facts: BatchFacts) {
    this.partnerBalanceMinor = facts.partnerBalanceMinor;
  }

  walletBalanceOf(recipient: BatchRecipientFacts): bigint {
    return this.walletBalances.get(recipient.userId) ?? recipient.wallet?.balanceMinor ?? 0n;
  }

  usageOf(recipient: BatchRecipientFacts): LimitUsage {
    return this.usages.get(recipient.userId) ?? recipient.usage;
  }

  /** A posted item moves the balances as its posting's legs say, and counts in its user's usage when its type has limits. */
  apply(recipient: BatchRecipientFacts, item: BatchItemIntent): void {
    const posting = buildPosting({ kind: this.facts.type, currency: this.facts.currency, amountMinor: item.amountMinor, feeMinor: item.feeMinor });
    for (const leg of posting.legs) {
      if (leg.role === 'partner') this.partnerBalanceMinor += leg.amountMinor;
      if (leg.role === 'user_wallet') this.walletBalances.set(recipient.userId, this.walletBalanceOf(recipient) + leg.amountMinor);
    }
    if (limitedTypeOf(this.facts.type) === undefined) return;
    const usage = this.usageOf(recipient);
    this.usages.set(recipient.userId, {
      hourCount: usage.hourCount + 1,
      dayCount: usage.dayCount + 1,
      dayAmountMinor: usage.dayAmountMinor + item.amountMinor,
      weekAmountMinor: usage.weekAmountMinor + item.amountMinor,
      monthAmountMinor: usage.monthAmountMinor + item.amountMinor,
      yearAmountMinor: usage.yearAmountMinor + item.amountMinor,
    });
  }
}
