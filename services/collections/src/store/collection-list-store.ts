import type { Pool } from '@pwa/db';
import type { Currency } from '@pwa/money';
import type { Collection } from '../domain/collection';
import type { CollectionStatus } from '../domain/collection-state-machine';
import { columnsOf, toCollection, type CollectionRow } from './collection-store';
import { positionKeySql, type ListPosition } from './list-position';

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
  const conditions = ['partner_id = $1'];
  const values: unknown[] = [filter.partnerId];
  const add = (condition: (placeholder: string) => string, value: unknown): void => {
    values.push(value);
    conditions.push(condition(`$${values.length}`));
  };
  if (filter.status !== undefined) add((p) => `${publicStatusSql} = ${p}`, filter.status);
  if (filter.currency !== undefined) add((p) => `currency = ${p}`, filter.currency);
  if (filter.externalId !== undefined) add((p) => `external_id = ${p}`, filter.externalId);
  if (filter.createdFrom !== undefined) add((p) => `created_at >= ${p}::timestamptz`, filter.createdFrom);
  if (filter.createdTo !== undefined) add((p) => `created_at < ${p}::timestamptz`, filter.createdTo);
  if (filter.after !== undefined) {
    values.push(filter.after.createdAt, filter.after.id);
    conditions.push(`(created_at, id) < ($${values.length - 1}::timestamptz, $${values.length}::uuid)`);
  }
  values.push(filter.rowCount);
  const sql = `SELECT ${columnsOf()}, ${positionKeySql()}
     FROM collection_requests WHERE ${conditions.join(' AND ')}
     ORDER BY created_at DESC, id DESC LIMIT $${values.length}`;
  return { sql, values };
}
