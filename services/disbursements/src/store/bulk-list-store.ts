import type { BulkStatus } from '@pwa/contracts';
import { createdAtKeySql, keysetPageQuery, type Queryable } from '@pwa/db';
import type { Bulk } from '../domain/bulk';
import { bulkColumns, toBulk, type BulkRow } from './bulk-store';

/** Where a page of the partner's bulks ended: the last bulk's created_at to the microsecond (as text, UTC) and its bulkId. */
export interface BulkListPosition {
  createdAt: string;
  bulkId: string;
}

export interface BulkListFilter {
  partnerId: string;
  status?: BulkStatus;
  /** ISO 8601 texts, passed to Postgres as timestamptz: inclusive, exclusive. */
  createdFrom?: string;
  createdTo?: string;
  after?: BulkListPosition;
  /** Rows to read: the page size plus one, which only says there is more. */
  rowCount: number;
}

export interface ListedBulk {
  bulk: Bulk;
  position: BulkListPosition;
}

/**
 * The partner's bulks, newest first by (created_at, bulk_id), after a position: a keyset read that
 * bulks_partner_created_idx or bulks_partner_status_created_idx (migration 1700000001400) answers
 * as a range scan stopping after rowCount rows. The position's created_at is read as text with
 * microseconds, so two bulks made in the same millisecond are neither skipped nor repeated.
 */
export async function listPartnerBulks(db: Queryable, filter: BulkListFilter): Promise<ListedBulk[]> {
  const { sql, values } = bulkListQueryOf(filter);
  const result = await db.query<BulkRow & { created_at_key: string }>(sql, values);
  return result.rows.map((row) => ({ bulk: toBulk(row), position: { createdAt: row.created_at_key, bulkId: row.bulk_id } }));
}

/** The list's SQL and values. */
export function bulkListQueryOf(filter: BulkListFilter): { sql: string; values: unknown[] } {
  return keysetPageQuery({
    columns: `${bulkColumns}, ${createdAtKeySql('created_at')}`,
    from: 'FROM bulks',
    createdAtColumn: 'created_at',
    idColumn: 'bulk_id',
    idType: 'text',
    scope: [(p) => `partner_id = ${p}`, filter.partnerId],
    filters: [
      [(p) => `status = ${p}`, filter.status],
      [(p) => `created_at >= ${p}::timestamptz`, filter.createdFrom],
      [(p) => `created_at < ${p}::timestamptz`, filter.createdTo],
    ],
    after: filter.after === undefined ? undefined : { createdAt: filter.after.createdAt, id: filter.after.bulkId },
    rowCount: filter.rowCount,
  });
}
