import { bulkReferenceIdPattern, decodePageCursor, pageOfRows, parsePublicInput, publicApi, type Page, type PageCursorScope } from '@pwa/contracts';
import { z } from '@pwa/config';
import { createdAtKeyPattern, type Pool } from '@pwa/db';
import { invalidCursorError } from '@pwa/errors';
import { bulkSummaryView, type BulkSummaryView } from '../domain/bulk';
import { listPartnerBulks, type BulkListPosition } from '../store/bulk-list-store';
import { readBulksProgress } from '../store/bulk-store';

/** What a cursor of this list carries: the last bulk's created_at (microseconds, UTC) and bulkId. */
const positionSchema: z.ZodType<BulkListPosition> = z.strictObject({
  createdAt: z.string().regex(createdAtKeyPattern),
  bulkId: z.string().regex(bulkReferenceIdPattern),
});

/**
 * GET /partner/v1/disbursement/bulks: the partner's bulk payouts, newest first, filtered, one keyset
 * page at a time, each as its summary (the counts and money summed over its items, for the whole
 * page in one statement). The query is the public contract's (unknown or bad parameters: 400
 * PKC_2008 naming them); the cursor must be this partner's, of this list, with these filters.
 */
export async function listBulks(pool: Pool, partnerId: string, query: unknown): Promise<Page<BulkSummaryView>> {
  const { limit, cursor, ...filters } = parsePublicInput(publicApi.bulkListQuerySchema, query, 'query');
  const scope: PageCursorScope = { partnerId, list: 'bulks', filters };
  const after = cursor === undefined ? undefined : decodePageCursor(scope, cursor, positionSchema);
  if (cursor !== undefined && after === undefined) throw invalidCursorError();
  const rows = await listPartnerBulks(pool, { partnerId, ...filters, after, rowCount: limit + 1 });
  const progress = await readBulksProgress(pool, rows.slice(0, limit).map((row) => row.bulk.bulkId));
  return pageOfRows(
    rows,
    limit,
    scope,
    (row) => row.position,
    (row) => {
      const bulkProgress = progress.get(row.bulk.bulkId);
      if (bulkProgress === undefined) throw new Error(`bulk ${row.bulk.bulkId} has no items`);
      return bulkSummaryView(row.bulk, bulkProgress);
    },
  );
}
