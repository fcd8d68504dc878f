import { decodePageCursor, pageOfRows, parsePublicInput, publicApi, type Page, type PageCursorScope } from '@pwa/contracts';
import { invalidCursorError } from '@pwa/errors';
import { refundView } from '../domain/refund-views';
import { listPartnerRefunds } from '../store/refund-list-store';
import { listPositionSchema } from '../store/list-position';
import type { CollectionsDependencies } from './dependencies';

/**
 * GET /partner/v1/refunds: the partner's refunds, newest first, filtered, one keyset page at a
 * time; the same query rules and cursor binding as the collections list (decision 0049).
 */
export async function listRefunds(dependencies: CollectionsDependencies, partnerId: string, query: unknown): Promise<Page<Record<string, unknown>>> {
  const { limit, cursor, ...filters } = parsePublicInput(publicApi.refundListQuerySchema, query, 'query');
  const scope: PageCursorScope = { partnerId, list: 'refunds', filters };
  const after = cursor === undefined ? undefined : decodePageCursor(scope, cursor, listPositionSchema);
  if (cursor !== undefined && after === undefined) throw invalidCursorError();
  const rows = await listPartnerRefunds(dependencies.pool, { partnerId, ...filters, after, rowCount: limit + 1 });
  return pageOfRows(
    rows,
    limit,
    scope,
    (row) => row.position,
    (row) => refundView(row.refund),
  );
}
