import type { Currency } from '@pwa/money';

/**
 * The ledger's invariants, checked from the stored data (the database enforces them on every write;
 * this check proves they still hold, for operators and for tests after every flow):
 *   balance_equals_entries  every account's stored balance equals the sum of its entries
 *   posting_balanced        every posting's entries sum to zero per currency
 *   posting_has_entries     every posted transfer has entries
 *   not_negative            no account but the funding account is below zero
 *   currency_sums_to_zero   all balances of a currency together are zero
 *   statement_matches_balance  every partner account's last statement line holds its balance (decision 0050)
 */
export type InvariantName = 'balance_equals_entries' | 'posting_balanced' | 'posting_has_entries' | 'not_negative' | 'currency_sums_to_zero' | 'statement_matches_balance';

export interface CurrencyTotals {
  currency: Currency;
  balancesSumMinor: bigint;
  entriesSumMinor: bigint;
  accountCount: number;
  postingCount: number;
}

export interface InvariantFacts {
  currencies: CurrencyTotals[];
  accountsOutOfStep: { accountId: string; currency: Currency; balanceMinor: bigint; entriesSumMinor: bigint }[];
  unbalancedPostings: { transferId: string; currency: Currency; sumMinor: bigint }[];
  postingsWithoutEntries: { transferId: string }[];
  negativeAccounts: { accountId: string; kind: string; currency: Currency; balanceMinor: bigint }[];
  /** Partner accounts whose last statement line (or zero without one) is not their balance. */
  statementsOutOfStep: { accountId: string; currency: Currency; balanceMinor: bigint; lastLineBalanceMinor: bigint }[];
}

export interface InvariantProblem {
  invariant: InvariantName;
  message: string;
}

export interface InvariantReport {
  ok: boolean;
  currencies: {
    currency: Currency;
    balancesSumMinor: string;
    entriesSumMinor: string;
    accountCount: number;
    postingCount: number;
  }[];
  problems: InvariantProblem[];
}

export function invariantReport(facts: InvariantFacts): InvariantReport {
  const problems: InvariantProblem[] = [
    ...facts.accountsOutOfStep.map((account) => ({
      invariant: 'balance_equals_entries' as const,
      message: `account ${account.accountId} (${account.currency}) stores ${account.balanceMinor} but its entries sum to ${account.entriesSumMinor}`,
    })),
    ...facts.unbalancedPostings.map((posting) => ({
      invariant: 'posting_balanced' as const,
      message: `posting ${posting.transferId} sums to ${posting.sumMinor} in ${posting.currency}`,
    })),
    ...facts.postingsWithoutEntries.map((posting) => ({
      invariant: 'posting_has_entries' as const,
      message: `posted transfer ${posting.transferId} has no entries`,
    })),
    ...facts.negativeAccounts.map((account) => ({
      invariant: 'not_negative' as const,
      message: `${account.kind} account ${account.accountId} (${account.currency}) is at ${account.balanceMinor}`,
    })),
    ...facts.statementsOutOfStep.map((account) => ({
      invariant: 'statement_matches_balance' as const,
      message: `partner account ${account.accountId} (${account.currency}) stores ${account.balanceMinor} but its last statement line says ${account.lastLineBalanceMinor}`,
    })),
    ...facts.currencies
      .filter((totals) => totals.balancesSumMinor !== 0n)
      .map((totals) => ({
        invariant: 'currency_sums_to_zero' as const,
        message: `balances in ${totals.currency} sum to ${totals.balancesSumMinor}, not zero`,
      })),
  ];
  return {
    ok: problems.length === 0,
    currencies: facts.currencies.map((totals) => ({
      currency: totals.currency,
      balancesSumMinor: totals.balancesSumMinor.toString(),
      entriesSumMinor: totals.entriesSumMinor.toString(),
      accountCount: totals.accountCount,
      postingCount: totals.postingCount,
    })),
    problems,
  };
}
