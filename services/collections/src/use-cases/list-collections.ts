import { decodePageCursor, pageOfRows, parsePublicInput, publicApi, type Page, type PageCursorScope } from '@pwa/contracts';
import { statusView } from '../domain/collection-views';
import { invalidCursorError } from '@pwa/errors';
import { listPartnerCollections } from '../store/collection-list-store';
import { listPositionSchema } from '../store/list-position';
import type { CollectionsDependencies } from './dependencies';

/**
 * GET /partner/v1/collections: the partner's collections, newest first, filtered, one keyset page
 * at a time. The query is the public contract's (unknown or bad parameters: 400 PKC_2008 naming
 * them); the cursor must be this partner's, of this list, with these filters.
 */
export async function listCollections(dependencies: CollectionsDependencies, partnerId: string, query: unknown): Promise<Page<Record<string, unknown>>> {
  const { limit, cursor, ...filters } = parsePublicInput(publicApi.collectionListQuerySchema, query, 'query');
  const scope: PageCursorScope = { partnerId, list: 'collections', filters };
  const after = cursor === undefined ? undefined : decodePageCursor(scope, cursor, listPositionSchema);
  if (cursor !== undefined && after === undefined) throw invalidCursorError();
  const rows = await listPartnerCollections(dependencies.pool, { partnerId, ...filters, after, rowCount: limit + 1 });
  return pageOfRows(
    rows,
    limit,
    scope,
    (row) => row.position,
    (row) => statusView(row.collection),
  );
}
