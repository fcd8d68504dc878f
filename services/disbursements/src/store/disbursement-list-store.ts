import { createdAtKeySql, keysetPageQuery, type Pool } from '@pwa/db';
import type { Currency } from '@pwa/money';
import type { ApiStatus } from '../domain/disbursement-state';
import { disbursementColumns, toDisbursement, type DisbursementRow } from './disbursement-store';
import type { Disbursement } from '../domain/disbursement';

/**
 * The partner-visible status as SQL: the same expression as the index
 * disbursements_partner_status_created_idx (migration 1700000001000), which the planner only uses
 * when the query's expression is the same.
 */
const publicStatusSql = "(CASE status WHEN 'processing' THEN 'pending' WHEN 'timed_out' THEN 'failed' ELSE status END)";

/** Where a page ended: the last row's created_at to the microsecond (as text, UTC) and its id. */
export interface DisbursementListPosition {
  createdAt: string;
  disbursementId: string;
}

export interface DisbursementListFilter {
  partnerId: string;
  status?: ApiStatus;
  currency?: Currency;
  externalId?: string;
  /** The customer's phone in the +231 form (the payer's, the recipient's). */
  phone?: string;
  /** ISO 8601 texts, passed to Postgres as timestamptz: inclusive, exclusive. */
  createdFrom?: string;
  createdTo?: string;
  after?: DisbursementListPosition;
  /** Rows to read: the page size plus one, which only says there is more. */
  rowCount: number;
}

export interface ListedDisbursement {
  disbursement: Disbursement;
  position: DisbursementListPosition;
}

/**
 * The partner's disbursements, newest first by (created_at, disbursement_id), after a position: a
 * keyset read that one of the partner indexes answers as a range scan stopping after rowCount rows.
 * The position's created_at is read as text with microseconds, since a JavaScript Date would cut
 * them and a cursor would then skip or repeat rows created in the same millisecond.
 */
export async function listPartnerDisbursements(pool: Pool, filter: DisbursementListFilter): Promise<ListedDisbursement[]> {
  const { sql, values } = listQueryOf(filter);
  const result = await pool.query<DisbursementRow & { created_at_key: string }>(sql, values);
  return result.rows.map((row) => ({ disbursement: toDisbursement(row), position: { createdAt: row.created_at_key, disbursementId: row.disbursement_id } }));
}

/** The list's SQL and values (exported for the benchmark's EXPLAIN of the same statement). */
export function listQueryOf(filter: DisbursementListFilter): { sql: string; values: unknown[] } {
  return keysetPageQuery({
    columns: `${disbursementColumns}, ${createdAtKeySql('created_at')}`,
    from: 'FROM disbursements',
    createdAtColumn: 'created_at',
    idColumn: 'disbursement_id',
    scope: [(p) => `partner_id = ${p}`, filter.partnerId],
    filters: [
      [(p) => `${publicStatusSql} = ${p}`, filter.status],
      [(p) => `currency = ${p}`, filter.currency],
      [(p) => `external_id = ${p}`, filter.externalId],
      [(p) => `phone = ${p}`, filter.phone],
      [(p) => `created_at >= ${p}::timestamptz`, filter.createdFrom],
      [(p) => `created_at < ${p}::timestamptz`, filter.createdTo],
    ],
    after: filter.after === undefined ? undefined : { createdAt: filter.after.createdAt, id: filter.after.disbursementId },
    rowCount: filter.rowCount,
  });
}
