import type { Currency } from '@pwa/money';
import type { PkcCode } from '@pwa/errors';
import type { AccountStatus, KycStatus, WalletStatus } from './user';
import { limitedTypeOf, type MovementType } from './transaction-type';
import { firstBrokenLimit, type LimitLookup, type LimitUsage } from './tier-limits';

/** What a partner asks to move: the amount and the fee (minor units) of one collection, disbursement or refund. */
export interface TransferIntent {
  type: MovementType;
  currency: Currency;
  amountMinor: bigint;
  feeMinor: bigint;
}

/** What the ledger knows at the moment of the check; loaded by the use case (under locks when posting). */
export interface TransferFacts {
  user: { accountStatus: AccountStatus; kycStatus: KycStatus } | undefined;
  /** The user's wallet in the intent's currency, if any. */
  wallet: { status: WalletStatus; balanceMinor: bigint } | undefined;
  /** The partner's balance in the intent's currency; 0 when it has no account yet. */
  partnerBalanceMinor: bigint;
  /**
   * The tier's rule for the intent's type and currency; undefined when the type has no limits (a
   * refund: the store does not look them up, decision 0053).
   */
  limits: LimitLookup | undefined;
  usage: LimitUsage;
}

/**
 * The first rule the transfer breaks, or undefined when it may proceed. The order is part of the
 * contract (docs/internal-contracts.md): the account, then the wallet, then KYC, then the balance
 * of the side that pays, then the limits (none for a refund). The same function runs for the
 * read-only check and again under row locks when posting, so a quote and its confirmation can only
 * disagree because the facts changed in between.
 */
export function firstFailingCheck(intent: TransferIntent, facts: TransferFacts): PkcCode | undefined {
  return accountRefusal(facts) ?? balanceRefusal(intent, facts) ?? limitRefusal(intent, facts);
}

function accountRefusal(facts: TransferFacts): PkcCode | undefined {
  if (!facts.user) return 'PKC_3001';
  if (facts.user.accountStatus !== 'active') return 'PKC_3002';
  if (!facts.wallet) return 'PKC_3003';
  if (facts.wallet.status !== 'active') return 'PKC_3004';
  if (facts.user.kycStatus !== 'approved') return 'PKC_3005';
  return undefined;
}

function balanceRefusal(intent: TransferIntent, facts: TransferFacts): PkcCode | undefined {
  const totalDebitMinor = intent.amountMinor + intent.feeMinor;
  switch (intent.type) {
    case 'collection':
      return (facts.wallet?.balanceMinor ?? 0n) < totalDebitMinor ? 'PKC_4001' : undefined;
    case 'disbursement':
    case 'refund':
      return facts.partnerBalanceMinor < totalDebitMinor ? 'PKC_4002' : undefined;
  }
}

/**
 * A refund gives back money the user already paid: it is never refused for limits, not even for a
 * tier without a rule (PKC_4011/4012), whatever the facts hold.
 */
function limitRefusal(intent: TransferIntent, facts: TransferFacts): PkcCode | undefined {
  if (limitedTypeOf(intent.type) === undefined) return undefined;
  if (facts.limits === undefined) throw new Error(`the limits of a ${intent.type} were not read`);
  if (!facts.limits.found) return facts.limits.refusal;
  return firstBrokenLimit(facts.limits.rule, facts.usage, intent.amountMinor);
}
