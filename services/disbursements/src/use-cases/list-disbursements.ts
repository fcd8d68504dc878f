import { decodePageCursor, pageOfRows, parsePublicInput, publicApi, type Page, type PageCursorScope } from '@pwa/contracts';
import { z } from '@pwa/config';
import type { Pool } from '@pwa/db';
import { statusView, type StatusView } from '../domain/disbursement';
import { invalidCursorError } from '@pwa/errors';
import { listPartnerDisbursements, type DisbursementListPosition } from '../store/disbursement-list-store';

/** What a cursor of this list carries: the last row's created_at (microseconds, UTC) and id. */
const positionSchema: z.ZodType<DisbursementListPosition> = z.strictObject({
  createdAt: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
  // Any UUID the table holds (z.uuid() would insist on an RFC 9562 version, which ids written by other means need not have).
  disbursementId: z.guid(),
});

/**
 * GET /partner/v1/disbursements: the partner's disbursements, newest first, filtered, one keyset
 * page at a time. The query is the public contract's (unknown or bad parameters: 400 PKC_2008
 * naming them); the cursor must be this partner's, of this list, with these filters.
 */
export async function listDisbursements(pool: Pool, partnerId: string, query: unknown): Promise<Page<StatusView>> {
  const { limit, cursor, ...filters } = parsePublicInput(publicApi.disbursementListQuerySchema, query, 'query');
  const scope: PageCursorScope = { partnerId, list: 'disbursements', filters };
  const after = cursor === undefined ? undefined : decodePageCursor(scope, cursor, positionSchema);
  if (cursor !== undefined && after === undefined) throw invalidCursorError();
  const rows = await listPartnerDisbursements(pool, { partnerId, ...filters, after, rowCount: limit + 1 });
  return pageOfRows(
    rows,
    limit,
    scope,
    (row) => row.position,
    (row) => statusView(row.disbursement),
  );
}
