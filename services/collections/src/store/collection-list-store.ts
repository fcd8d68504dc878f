import { createdAtKeySql, keysetPageQuery, type Pool } from '@pwa/db';
import type { Currency } from '@pwa/money';
import type { Collection } from '../domain/collection';
import type { CollectionStatus } from '../domain/collection-state-machine';
import { columnsOf, toCollection, type CollectionRow } from './collection-store';
import type { ListPosition } from './list-position';

/**
 * The partner-visible status as SQL: the same expression as the index
 * collection_requests_partner_status_created (migration 1700000001000), which the planner only
 * uses when the query's expression is the same.
 */
const publicStatusSql = "(CASE status WHEN 'processing' THEN 'pending_approval' ELSE status END)";

export interface CollectionListFilter {
  partnerId: string;
  status?: Exclude<CollectionStatus, 'processing'>;
  currency?: Currency;
  externalId?: string;
  /** The customer's phone in the +231 form (the payer's, the recipient's). */
  phone?: string;
  /** ISO 8601 texts, passed to Postgres as timestamptz: inclusive, exclusive. */
  createdFrom?: string;
  createdTo?: string;
  after?: ListPosition;
  /** Rows to read: the page size plus one, which only says there is more. */
  rowCount: number;
}

export interface ListedCollection {
  collection: Collection;
  position: ListPosition;
}

/**
 * The partner's collections, newest first by (created_at, id), after a position: a keyset read
 * that one of the partner indexes answers as a range scan stopping after rowCount rows. The
 * position's created_at is read as text with microseconds, since a JavaScript Date would cut them
 * and a cursor would then skip or repeat rows created in the same millisecond.
 */
export async function listPartnerCollections(pool: Pool, filter: CollectionListFilter): Promise<ListedCollection[]> {
  const { sql, values } = listQueryOf(filter);
  const result = await pool.query<CollectionRow & { created_at_key: string }>(sql, values);
  return result.rows.map((row) => ({ collection: toCollection(row), position: { createdAt: row.created_at_key, id: row.id } }));
}

/** The list's SQL and values. */
export function listQueryOf(filter: CollectionListFilter): { sql: string; values: unknown[] } {
  return keysetPageQuery({
    columns: `${columnsOf()}, ${createdAtKeySql('created_at')}`,
    from: 'FROM collection_requests',
    createdAtColumn: 'created_at',
    idColumn: 'id',
    scope: [(p) => `partner_id = ${p}`, filter.partnerId],
    filters: [
      [(p) => `${publicStatusSql} = ${p}`, filter.status],
      [(p) => `currency = ${p}`, filter.currency],
      [(p) => `external_id = ${p}`, filter.externalId],
      [(p) => `phone = ${p}`, filter.phone],
      [(p) => `created_at >= ${p}::timestamptz`, filter.createdFrom],
      [(p) => `created_at < ${p}::timestamptz`, filter.createdTo],
    ],
    after: filter.after,
    rowCount: filter.rowCount,
  });
}
