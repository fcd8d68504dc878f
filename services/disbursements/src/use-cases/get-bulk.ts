import { decodePageCursor, pageOfRows, parsePublicInput, publicApi, type Page, type PageCursorScope } from '@pwa/contracts';
import { z } from '@pwa/config';
import type { Pool } from '@pwa/db';
import { invalidCursorError, PkcError } from '@pwa/errors';
import { bulkSummaryView, type Bulk, type BulkSummaryView } from '../domain/bulk';
import { statusView, type StatusView } from '../domain/disbursement';
import { isBulkId } from '../domain/reference-id';
import { findBulk, listBulkItems, readBulkProgress } from '../store/bulk-store';

export type BulkItemView = StatusView & { index: number };
export type BulkView = BulkSummaryView & { items: Page<BulkItemView> };

/** What a cursor of a bulk's items carries: the last item's index. */
const positionSchema = z.strictObject({ index: z.number().int().min(0) });

/** A bulk of the partner: malformed or unknown is 404 PKC_6002, another partner's 403 PKC_6005. */
export async function findPartnerBulk(pool: Pool, partnerId: string, bulkId: string): Promise<Bulk> {
  const bulk = isBulkId(bulkId) ? await findBulk(pool, bulkId) : undefined;
  if (!bulk) throw new PkcError('PKC_6002', 'No bulk has this bulkId');
  if (bulk.partnerId !== partnerId) throw new PkcError('PKC_6005');
  return bulk;
}

/**
 * GET /partner/v1/disbursement/bulk/{bulkId}: the bulk's status, counts and totals, and one page of
 * its items in the partner's order (limit, cursor; a cursor is good for this bulk only).
 */
export async function getBulk(pool: Pool, partnerId: string, bulkId: string, query: unknown): Promise<BulkView> {
  const { limit, cursor } = parsePublicInput(publicApi.bulkQuerySchema, query, 'query');
  const bulk = await findPartnerBulk(pool, partnerId, bulkId);
  const scope: PageCursorScope = { partnerId, list: `bulk ${bulk.bulkId}`, filters: {} };
  const after = cursor === undefined ? undefined : decodePageCursor(scope, cursor, positionSchema);
  if (cursor !== undefined && after === undefined) throw invalidCursorError();
  const [progress, rows] = await Promise.all([readBulkProgress(pool, bulk.bulkId), listBulkItems(pool, bulk.bulkId, after?.index, limit + 1)]);
  const items = pageOfRows(
    rows,
    limit,
    scope,
    (row) => ({ index: row.bulkIndex ?? 0 }),
    (row): BulkItemView => ({ ...statusView(row), index: row.bulkIndex ?? 0 }),
  );
  return { ...bulkSummaryView(bulk, progress), items };
}
