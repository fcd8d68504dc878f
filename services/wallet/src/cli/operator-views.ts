import { majorUnitsText, type Currency } from '@pwa/money';
import type { TierLimitRule } from '../domain/tier-limits';
import type { User } from '../domain/user';
import type { PartnerAccount } from '../store/account-store';
import type { PostingOutcome } from '../use-cases/transfer-outcome';
import type { ReversalSummary } from '../use-cases/reverse-disbursement';

/**
 * What the CLI prints. Amounts are decimal strings of major units ("1500.50"), the form the
 * operator types, so that JSON output never carries money as a float.
 */
/** A user with the wallets the operator closed (show-user and update-user list them). */
export type UserWithClosedWallets = User & { closedWallets?: readonly { currency: Currency; closedAt: Date }[] };

export function userView(user: UserWithClosedWallets): Record<string, unknown> {
  return {
    userId: user.userId,
    phone: user.phone,
    name: user.name,
    accountStatus: user.accountStatus,
    kycStatus: user.kycStatus,
    tier: user.tier,
    wallets: user.wallets.map((wallet) => ({ currency: wallet.currency, status: wallet.status, balance: majorUnitsText(wallet.balanceMinor) })),
    closedWallets: (user.closedWallets ?? []).map((wallet) => ({ currency: wallet.currency, closedAt: wallet.closedAt.toISOString() })),
  };
}

export function describeUser(user: UserWithClosedWallets): string {
  const wallets = [
    ...user.wallets.map((wallet) => `    ${wallet.currency}  ${majorUnitsText(wallet.balanceMinor).padStart(16)}  ${wallet.status}`),
    ...(user.closedWallets ?? []).map((wallet) => `    ${wallet.currency}  ${''.padStart(16)}  closed since ${wallet.closedAt.toISOString()}`),
  ];
  return [
    `user ${user.name}`,
    `  phone:          ${user.phone}`,
    `  account status: ${user.accountStatus}`,
    `  KYC status:     ${user.kycStatus}`,
    `  tier:           ${user.tier}`,
    `  wallets:${wallets.length === 0 ? ' none' : ''}`,
    ...wallets,
  ].join('\n');
}

export function postingView(outcome: PostingOutcome): Record<string, unknown> {
  return outcome.state === 'posted'
    ? { transferId: outcome.transferId, state: 'posted', transactionId: outcome.transactionId, postedAt: outcome.postedAt.toISOString(), replayed: outcome.replayed }
    : { transferId: outcome.transferId, state: 'cancelled' };
}

export function describePosting(outcome: PostingOutcome): string {
  if (outcome.state === 'cancelled') return `transfer ${outcome.transferId} was cancelled; nothing was posted`;
  // A transfer id used before: the first call's posting, and nothing moved now.
  return outcome.replayed
    ? `already posted ${outcome.transactionId} (transfer ${outcome.transferId}) at ${outcome.postedAt.toISOString()} by an earlier call; nothing moved now`
    : `posted ${outcome.transactionId} (transfer ${outcome.transferId}) at ${outcome.postedAt.toISOString()}`;
}

export function limitView(rule: TierLimitRule): Record<string, unknown> {
  return {
    tier: rule.tier,
    transactionType: rule.transactionType,
    currency: rule.currency,
    perTransaction: majorUnitsText(rule.perTransactionMaxMinor),
    daily: majorUnitsText(rule.dailyMaxMinor),
    weekly: majorUnitsText(rule.weeklyMaxMinor),
    monthly: majorUnitsText(rule.monthlyMaxMinor),
    yearly: majorUnitsText(rule.yearlyMaxMinor),
    perHourCount: rule.perHourCountMax,
    perDayCount: rule.perDayCountMax,
  };
}

export function describeLimits(rules: readonly TierLimitRule[]): string {
  if (rules.length === 0) return 'no limits configured';
  const header = 'tier      type          cur  per transaction        daily         weekly        monthly          yearly  /hour  /day';
  const lines = rules.map((rule) =>
    [
      rule.tier.padEnd(9),
      rule.transactionType.padEnd(13),
      rule.currency.padEnd(4),
      ...[rule.perTransactionMaxMinor, rule.dailyMaxMinor, rule.weeklyMaxMinor, rule.monthlyMaxMinor, rule.yearlyMaxMinor].map((minor) =>
        majorUnitsText(minor).padStart(15),
      ),
      String(rule.perHourCountMax).padStart(6),
      String(rule.perDayCountMax).padStart(5),
    ].join(' '),
  );
  return [header, ...lines].join('\n');
}

export interface BalancesReport {
  partners: PartnerAccount[];
  feeRevenue: Record<Currency, bigint>;
  funding: Record<Currency, bigint>;
}

export function balancesView(report: BalancesReport): Record<string, unknown> {
  const decimal = (balances: Record<Currency, bigint>): Record<Currency, string> => ({
    LRD: majorUnitsText(balances.LRD),
    USD: majorUnitsText(balances.USD),
  });
  return {
    partners: report.partners.map((account) => ({ partnerId: account.partnerId, currency: account.currency, balance: majorUnitsText(account.balanceMinor) })),
    feeRevenue: decimal(report.feeRevenue),
    funding: decimal(report.funding),
  };
}

export function describeBalances(report: BalancesReport): string {
  const partners = report.partners.map((account) => `  ${account.partnerId}  ${account.currency}  ${majorUnitsText(account.balanceMinor).padStart(16)}`);
  return [
    'partner accounts:',
    ...(partners.length === 0 ? ['  none'] : partners),
    `fee revenue:      LRD ${majorUnitsText(report.feeRevenue.LRD)}  USD ${majorUnitsText(report.feeRevenue.USD)}`,
    `funding account:  LRD ${majorUnitsText(report.funding.LRD)}  USD ${majorUnitsText(report.funding.USD)}  (negative: money brought in from outside)`,
  ].join('\n');
}

export function reversalView(summary: ReversalSummary): Record<string, unknown> {
  const { disbursement, reversal } = summary;
  return {
    state: 'posted',
    reversal: { transferId: reversal.transferId, transactionId: reversal.transactionId, postedAt: reversal.postedAt.toISOString() },
    disbursement: {
      transferId: disbursement.transferId,
      transactionId: disbursement.transactionId,
      referenceId: disbursement.referenceId,
      externalId: disbursement.externalId,
      postedAt: disbursement.postedAt.toISOString(),
      amount: majorUnitsText(disbursement.amountMinor),
      fee: majorUnitsText(disbursement.feeMinor),
    },
    currency: summary.currency,
    amount: majorUnitsText(summary.amountMinor),
    user: { phone: summary.user.phone, balanceBefore: majorUnitsText(summary.user.beforeMinor), balanceAfter: majorUnitsText(summary.user.afterMinor) },
    partner: { partnerId: summary.partner.partnerId, balanceBefore: majorUnitsText(summary.partner.beforeMinor), balanceAfter: majorUnitsText(summary.partner.afterMinor) },
    reason: summary.reason,
    operator: summary.operator,
  };
}

export function describeReversal(summary: ReversalSummary): string {
  const { disbursement, reversal, currency } = summary;
  const change = (before: bigint, after: bigint): string => `${currency} ${majorUnitsText(before).padStart(16)} -> ${majorUnitsText(after).padStart(16)}`;
  return [
    `reversed disbursement ${disbursement.referenceId ?? '(no referenceId)'} (${disbursement.transactionId}, posted ${disbursement.postedAt.toISOString()})`,
    `  posted ${reversal.transactionId} (transfer ${reversal.transferId}) at ${reversal.postedAt.toISOString()}`,
    `  amount:   ${currency} ${majorUnitsText(summary.amountMinor)} back from the user to the partner; the fee of ${majorUnitsText(disbursement.feeMinor)} stays earned`,
    `  user ${summary.user.phone ?? '(unknown phone)'}:`.padEnd(50) + change(summary.user.beforeMinor, summary.user.afterMinor),
    `  partner ${summary.partner.partnerId}:`.padEnd(50) + change(summary.partner.beforeMinor, summary.partner.afterMinor),
    `  reason:   ${summary.reason}`,
    `  operator: ${summary.operator}`,
  ].join('\n');
}
