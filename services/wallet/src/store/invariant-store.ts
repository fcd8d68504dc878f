import type { Queryable } from '@pwa/db';
import { currencies, minorFromDatabase, type Currency } from '@pwa/money';
import type { InvariantFacts } from '../domain/ledger-invariants';

/** At most this many offenders of each kind are reported; one is enough to fail, the rest is for diagnosis. */
const offendersMax = 100;

/** Reads what the invariant check needs. The caller runs it in one REPEATABLE READ snapshot. */
export async function loadInvariantFacts(db: Queryable): Promise<InvariantFacts> {
  const totals = await db.query<{ currency: Currency; balances_sum: string; account_count: number; entries_sum: string; posting_count: number }>(
    `SELECT c.currency,
            coalesce((SELECT sum(balance_minor) FROM ledger_accounts WHERE currency = c.currency), 0)::text AS balances_sum,
            (SELECT count(*) FROM ledger_accounts WHERE currency = c.currency)::int AS account_count,
            coalesce((SELECT sum(amount_minor) FROM entries WHERE currency = c.currency), 0)::text AS entries_sum,
            (SELECT count(*) FROM transfers WHERE state = 'posted' AND currency = c.currency)::int AS posting_count
       FROM unnest($1::text[]) AS c (currency)
      ORDER BY c.currency`,
    [currencies],
  );
  const outOfStep = await db.query<{ account_id: string; currency: Currency; balance_minor: string; entries_sum: string }>(
    `SELECT a.account_id, a.currency, a.balance_minor, coalesce(e.entries_sum, 0)::text AS entries_sum
       FROM ledger_accounts a
       LEFT JOIN (SELECT account_id, sum(amount_minor) AS entries_sum FROM entries GROUP BY account_id) e ON e.account_id = a.account_id
      WHERE a.balance_minor <> coalesce(e.entries_sum, 0)
      ORDER BY a.account_id LIMIT ${offendersMax}`,
  );
  const unbalanced = await db.query<{ transfer_id: string; currency: Currency; sum_minor: string }>(
    `SELECT transfer_id, currency, sum(amount_minor)::text AS sum_minor FROM entries
      GROUP BY transfer_id, currency HAVING sum(amount_minor) <> 0
      ORDER BY transfer_id LIMIT ${offendersMax}`,
  );
  const withoutEntries = await db.query<{ transfer_id: string }>(
    `SELECT t.transfer_id FROM transfers t
      WHERE t.state = 'posted' AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.transfer_id = t.transfer_id)
      ORDER BY t.transfer_id LIMIT ${offendersMax}`,
  );
  const negative = await db.query<{ account_id: string; kind: string; currency: Currency; balance_minor: string }>(
    `SELECT account_id, kind, currency, balance_minor FROM ledger_accounts
      WHERE kind <> 'funding' AND balance_minor < 0 ORDER BY account_id LIMIT ${offendersMax}`,
  );
  const statements = await db.query<{ account_id: string; currency: Currency; balance_minor: string; last_line_minor: string }>(
    `SELECT a.account_id, a.currency, a.balance_minor, coalesce(l.balance_after_minor, 0)::text AS last_line_minor
       FROM ledger_accounts a
       LEFT JOIN LATERAL (SELECT s.balance_after_minor FROM partner_statement_lines s WHERE s.account_id = a.account_id
                           ORDER BY s.posted_at DESC, s.line_id DESC LIMIT 1) l ON true
      WHERE a.kind = 'partner' AND a.balance_minor <> coalesce(l.balance_after_minor, 0)
      ORDER BY a.account_id LIMIT ${offendersMax}`,
  );
  return {
    statementsOutOfStep: statements.rows.map((row) => ({
      accountId: row.account_id,
      currency: row.currency,
      balanceMinor: minorFromDatabase(row.balance_minor),
      lastLineBalanceMinor: minorFromDatabase(row.last_line_minor),
    })),
    currencies: totals.rows.map((row) => ({
      currency: row.currency,
      balancesSumMinor: minorFromDatabase(row.balances_sum),
      entriesSumMinor: minorFromDatabase(row.entries_sum),
      accountCount: row.account_count,
      postingCount: row.posting_count,
    })),
    accountsOutOfStep: outOfStep.rows.map((row) => ({
      accountId: row.account_id,
      currency: row.currency,
      balanceMinor: minorFromDatabase(row.balance_minor),
      entriesSumMinor: minorFromDatabase(row.entries_sum),
    })),
    unbalancedPostings: unbalanced.rows.map((row) => ({ transferId: row.transfer_id, currency: row.currency, sumMinor: minorFromDatabase(row.sum_minor) })),
    postingsWithoutEntries: withoutEntries.rows.map((row) => ({ transferId: row.transfer_id })),
    negativeAccounts: negative.rows.map((row) => ({
      accountId: row.account_id,
      kind: row.kind,
      currency: row.currency,
      balanceMinor: minorFromDatabase(row.balance_minor),
    })),
  };
}
