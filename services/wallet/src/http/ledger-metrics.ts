import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Pool } from '@pwa/db';
import { currencies, type Currency } from '@pwa/money';
import { movementTypes, type MovementType } from '../domain/transaction-type';

/** Account kinds as the catalogue names them; the table stores the user's as `user_wallet`. */
const accountKinds = ['user', 'partner', 'fee_revenue', 'funding'] as const;

export interface LedgerMetrics {
  /** A new posting committed (not a replay of an earlier one). */
  posted(type: MovementType, currency: Currency, amountMinor: bigint): void;
  /** The periodic invariant check found the ledger sound (true) or not (false). */
  invariantChecked(ok: boolean): void;
  /** Group commit (decision 0056) posted a group of this many single postings. */
  groupPosted(size: number): void;
}

/**
 * The wallet's catalogue metrics (docs/metrics.md) on the service's registry: postings and the
 * minor units they moved, balances per account kind (one aggregate query per scrape), and the
 * periodic invariant check's verdict and time. ledger_invariant_ok is NaN until the first check.
 */
export function createLedgerMetrics(registry: Registry, pool: Pool): LedgerMetrics {
  const postings = new Counter({
    name: 'ledger_postings_total',
    help: 'Transfers posted by this process, by type and currency',
    labelNames: ['type', 'currency'] as const,
    registers: [registry],
  });
  const postedMinor = new Counter({
    name: 'ledger_posted_minor_total',
    help: 'Minor units moved by the transfers posted (the amount, before the fee), by type and currency',
    labelNames: ['type', 'currency'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'ledger_account_balance_minor',
    help: 'Sum of the stored balances per account kind (user, partner, fee_revenue, funding) and currency, in minor units',
    labelNames: ['kind', 'currency'] as const,
    registers: [registry],
    async collect() {
      const sums = await balanceSumsByKind(pool).catch(() => undefined);
      for (const kind of accountKinds) {
        for (const currency of currencies) this.set({ kind, currency }, sums ? (sums.get(`${kind}/${currency}`) ?? 0) : Number.NaN);
      }
    },
  });
  const invariantOk = new Gauge({
    name: 'ledger_invariant_ok',
    help: 'Whether the last periodic ledger invariant check passed (1) or found a violation (0); NaN before the first check',
    registers: [registry],
  });
  const invariantCheckedAt = new Gauge({
    name: 'ledger_invariant_check_last_run_timestamp_seconds',
    help: 'Unix time of the last periodic ledger invariant check that completed (0 before the first)',
    registers: [registry],
  });
  const groupSizes = new Histogram({
    name: 'ledger_group_commit_size',
    help: 'Single disbursement postings posted together by group commit, per group (1: the partner had nothing in flight)',
    buckets: [1, 2, 5, 10, 20, 50, 100, 200],
    registers: [registry],
  });
  invariantOk.set(Number.NaN);
  for (const type of movementTypes) {
    for (const currency of currencies) {
      postings.inc({ type, currency }, 0);
      postedMinor.inc({ type, currency }, 0);
    }
  }
  return {
    posted: (type, currency, amountMinor) => {
      postings.inc({ type, currency });
      postedMinor.inc({ type, currency }, Number(amountMinor));
    },
    groupPosted: (size) => groupSizes.observe(size),
    invariantChecked: (ok) => {
      invariantOk.set(ok ? 1 : 0);
      invariantCheckedAt.set(Date.now() / 1000);
    },
  };
}

/**
 * One aggregate over the ledger accounts, keyed `kind/currency`. The sums are exact in PostgreSQL
 * (numeric) and become float64 for Prometheus, exact up to 2^53 minor units.
 */
async function balanceSumsByKind(pool: Pool): Promise<Map<string, number>> {
  const result = await pool.query<{ kind: string; currency: string; sum_minor: string }>(
    `SELECT CASE kind WHEN 'user_wallet' THEN 'user' ELSE kind END AS kind, currency, sum(balance_minor)::text AS sum_minor
       FROM ledger_accounts GROUP BY kind, currency`,
  );
  return new Map(result.rows.map((row) => [`${row.kind}/${row.currency}`, Number(row.sum_minor)]));
}
