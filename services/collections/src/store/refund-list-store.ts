import { createdAtKeySql, keysetPageQuery, type Pool } from '@pwa/db';
import type { RefundStatus } from '@pwa/contracts';
import type { Currency } from '@pwa/money';
import type { Refund } from '../domain/refund';
import { fromRefunds, refundColumns, toRefund, type RefundRow } from './refund-store';
import type { ListPosition } from './list-position';

export interface RefundListFilter {
  partnerId: string;
  status?: RefundStatus;
  currency?: Currency;
  externalId?: string;
  collectionReferenceId?: string;
  /** ISO 8601 texts, passed to Postgres as timestamptz: inclusive, exclusive. */
  createdFrom?: string;
  createdTo?: string;
  after?: ListPosition;
  /** Rows to read: the page size plus one, which only says there is more. */
  rowCount: number;
}

export interface ListedRefund {
  refund: Refund;
  position: ListPosition;
}

/**
 * The partner's refunds, newest first by (created_at, id), after a position: a keyset read of
 * collection_refunds_partner_created (partner, created_at, id), or of collection_refunds_of_collection
 * when one collection is asked for. Refunds are few beside collections (at most a handful per
 * collection), so status, currency and externalId filter the rows of that range scan.
 */
export async function listPartnerRefunds(pool: Pool, filter: RefundListFilter): Promise<ListedRefund[]> {
  const { sql, values } = keysetPageQuery({
    columns: `${refundColumns('r', 'c')}, ${createdAtKeySql('r.created_at')}`,
    from: fromRefunds,
    createdAtColumn: 'r.created_at',
    idColumn: 'r.id',
    scope: [(p) => `r.partner_id = ${p}`, filter.partnerId],
    filters: [
      // The scope's partner is $1: a collection of another partner's is no collection here.
      [(p) => `r.collection_id = (SELECT id FROM collection_requests WHERE reference_id = ${p} AND partner_id = $1)`, filter.collectionReferenceId],
      [(p) => `r.status = ${p}`, filter.status],
      [(p) => `r.currency = ${p}`, filter.currency],
      [(p) => `r.external_id = ${p}`, filter.externalId],
      [(p) => `r.created_at >= ${p}::timestamptz`, filter.createdFrom],
      [(p) => `r.created_at < ${p}::timestamptz`, filter.createdTo],
    ],
    after: filter.after,
    rowCount: filter.rowCount,
  });
  const result = await pool.query<RefundRow & { created_at_key: string }>(sql, values);
  return result.rows.map((row) => ({ refund: toRefund(row), position: { createdAt: row.created_at_key, id: row.id } }));
}
