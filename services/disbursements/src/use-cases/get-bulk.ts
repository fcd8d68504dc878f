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
 * GET /partner/v1/disbursement/bulk/{bulkId}/items: the bulk's items in the partner's order, in the
 * one shape of every list (limit, cursor; a cursor is good for this bulk only).
 */
export async function listBulkItemsOfPartner(pool: Pool, partnerId: string, bulkId: string, query: unknown): Promise<Page<BulkItemView>> {
  const { limit, cursor } = parsePublicInput(publicApi.bulkQuerySchema, query, 'query');
  const bulk = await findPartnerBulk(pool, partnerId, bulkId);
  return itemsPageOf(pool, partnerId, bulk, { limit, cursor });
}

/**
 * GET /partner/v1/disbursement/bulk/{bulkId}: the bulk's status, counts and totals, and (kept for
 * one version, deprecated: decision 0077) one page of its items nested in `items`.
 */
export async function getBulk(pool: Pool, partnerId: string, bulkId: string, query: unknown): Promise<BulkView> {
  const { limit, cursor } = parsePublicInput(publicApi.bulkQuerySchema, query, 'query');
  const bulk = await findPartnerBulk(pool, partnerId, bulkId);
  const [progress, items] = await Promise.all([readBulkProgress(pool, bulk.bulkId), itemsPageOf(pool, partnerId, bulk, { limit, cursor })]);
  return { ...bulkSummaryView(bulk, progress), items };
}

async function itemsPageOf(pool: Pool, partnerId: string, bulk: Bulk, page: { limit: number; cursor: string | undefined }): Promise<Page<BulkItemView>> {
  const scope: PageCursorScope = { partnerId, list: `bulk ${bulk.bulkId}`, filters: {} };
  const after = page.cursor === undefined ? undefined : decodePageCursor(scope, page.cursor, positionSchema);
  if (page.cursor !== undefined && after === undefined) throw invalidCursorError();
  const rows = await listBulkItems(pool, bulk.bulkId, after?.index, page.limit + 1);
  return pageOfRows(
    rows,
    page.limit,
    scope,
    (row) => ({ index: row.bulkIndex ?? 0 }),
    (row): BulkItemView => ({ ...statusView(row), index: row.bulkIndex ?? 0 }),
  );
}
