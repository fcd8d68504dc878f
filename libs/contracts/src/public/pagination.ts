import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * The one way the public lists page (collections, disbursements, the statement, the events):
 * keyset pagination with an opaque cursor. A cursor names the last row of the page it ended and is
 * bound to its scope: the partner, the list and the filters it was made with. A cursor read in
 * another scope (another partner's, another list's, other filters) or not made here at all is not
 * a cursor: the services answer 400 PKC_2008 naming `cursor`, as for any unreadable parameter.
 *
 * The cursor is not secret and not signed: the scope check means it can only ever position a read
 * of the caller's own rows, which the caller may read anyway. What it carries is validated with the
 * list's own position schema, so a hand-made cursor cannot smuggle anything into a query.
 */

export const pageLimitDefault = 20;
export const pageLimitMax = 100;
/** Longer than any cursor made here; a longer value is refused before it is decoded. */
export const pageCursorLengthMax = 500;

export interface PageCursorScope {
  partnerId: string;
  /** Which list: 'collections', 'disbursements', 'statement', 'events'. */
  list: string;
  /** The filters the first page was asked with (undefined values are left out); the cursor is only good with the same. */
  filters: Readonly<Record<string, string | number | undefined>>;
}

const cursorVersion = 1;
const envelopeSchema = z.strictObject({ v: z.literal(cursorVersion), s: z.string(), p: z.unknown() });

/** The opaque cursor for the page after the row at `position`. */
export function encodePageCursor(scope: PageCursorScope, position: unknown): string {
  return Buffer.from(JSON.stringify({ v: cursorVersion, s: scopeDigest(scope), p: position }), 'utf8').toString('base64url');
}

/**
 * The position a cursor carries, or undefined when the cursor was not made here for this scope
 * (forged, truncated, another partner's, another list's or other filters'): the caller refuses it.
 */
export function decodePageCursor<Position>(scope: PageCursorScope, cursor: string, positionSchema: z.ZodType<Position>): Position | undefined {
  if (cursor.length === 0 || cursor.length > pageCursorLengthMax || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  let envelope: unknown;
  try {
    envelope = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = envelopeSchema.safeParse(envelope);
  if (!parsed.success || parsed.data.s !== scopeDigest(scope)) return undefined;
  const position = positionSchema.safeParse(parsed.data.p);
  return position.success ? position.data : undefined;
}

function scopeDigest(scope: PageCursorScope): string {
  const filters = Object.entries(scope.filters)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  return createHash('sha256').update(JSON.stringify([scope.partnerId, scope.list, filters])).digest('base64url').slice(0, 22);
}

/** The query fields every list takes: `limit` (1 to 100, default 20) and `cursor`. */
export const pageQueryFields = {
  limit: z.coerce.number().int().min(1).max(pageLimitMax).default(pageLimitDefault).meta({ param: { description: `Page size, 1 to ${pageLimitMax} (default ${pageLimitDefault}).` } }),
  cursor: z
    .string()
    .min(1)
    .max(pageCursorLengthMax)
    .optional()
    .meta({ param: { description: 'The nextCursor of the previous page. Keep the same filters: a cursor is only good for the list and filters it came from, and only for you (anything else is 400 PKC_2008).' } }),
};

/** A page of a list: `{ items, nextCursor, hasMore }`, the answer's `data`. */
export function pageSchemaOf<Item extends z.ZodType>(item: Item, id: string, description: string) {
  return z
    .strictObject({
      items: z.array(item).meta({ description: 'This page, in the list’s order.' }),
      nextCursor: z.string().min(1).nullable().meta({ description: 'Opaque; pass it as cursor for the next page. null on the last page.' }),
      hasMore: z.boolean().meta({ description: 'true when there is a next page (then nextCursor is set).' }),
    })
    .meta({ id, description });
}

export interface Page<Item> {
  items: Item[];
  nextCursor: string | null;
  hasMore: boolean;
}

/**
 * The page from `limit + 1` rows read in the list's order: the extra row only says that there is
 * more. `positionOf` gives the keyset position of the last row shown.
 */
export function pageOfRows<Row, Item>(rows: readonly Row[], limit: number, scope: PageCursorScope, positionOf: (row: Row) => unknown, toItem: (row: Row) => Item): Page<Item> {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  const hasMore = rows.length > limit && last !== undefined;
  return { items: shown.map(toItem), nextCursor: hasMore ? encodePageCursor(scope, positionOf(last)) : null, hasMore };
}
