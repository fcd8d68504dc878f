import type { Pool } from '@pwa/db';
import type { RefundStatus } from '@pwa/contracts';
import type { Currency } from '@pwa/money';
import type { Refund } from '../domain/refund';
import { fromRefunds, refundColumns, toRefund, type RefundRow } from './refund-store';
import { positionKeySql, type ListPosition } from './list-position';

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
  const conditions = ['r.partner_id = $1'];
  const values: unknown[] = [filter.partnerId];
  const add = (condition: (placeholder: string) => string, value: unknown): void => {
    values.push(value);
    conditions.push(condition(`$${values.length}`));
  };
  if (filter.collectionReferenceId !== undefined) {
    add((p) => `r.collection_id = (SELECT id FROM collection_requests WHERE reference_id = ${p} AND partner_id = $1)`, filter.collectionReferenceId);
  }
  if (filter.status !== undefined) add((p) => `r.status = ${p}`, filter.status);
  if (filter.currency !== undefined) add((p) => `r.currency = ${p}`, filter.currency);
  if (filter.externalId !== undefined) add((p) => `r.external_id = ${p}`, filter.externalId);
  if (filter.createdFrom !== undefined) add((p) => `r.created_at >= ${p}::timestamptz`, filter.createdFrom);
  if (filter.createdTo !== undefined) add((p) => `r.created_at < ${p}::timestamptz`, filter.createdTo);
  if (filter.after !== undefined) {
    values.push(filter.after.createdAt, filter.after.id);
    conditions.push(`(r.created_at, r.id) < ($${values.length - 1}::timestamptz, $${values.length}::uuid)`);
  }
  values.push(filter.rowCount);
  const result = await pool.query<RefundRow & { created_at_key: string }>(
    `SELECT ${refundColumns('r', 'c')}, ${positionKeySql('r.')}
       ${fromRefunds} WHERE ${conditions.join(' AND ')}
      ORDER BY r.created_at DESC, r.id DESC LIMIT $${values.length}`,
    values,
  );
  return result.rows.map((row) => ({ refund: toRefund(row), position: { createdAt: row.created_at_key, id: row.id } }));
}
