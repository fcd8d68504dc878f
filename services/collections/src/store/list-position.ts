import { z } from '@pwa/config';
import { createdAtKeyPattern } from '@pwa/db';

/**
 * Where a page of a keyset list ended (the collections and the refunds lists): the last row's
 * created_at to the microsecond, as UTC text (a JavaScript Date would cut the microseconds and a
 * cursor would skip or repeat rows created in the same millisecond), and its id.
 */
export interface ListPosition {
  createdAt: string;
  id: string;
}

/** What a cursor of these lists may carry; anything else is refused as a bad cursor. */
export const listPositionSchema: z.ZodType<ListPosition> = z.strictObject({
  createdAt: z.string().regex(createdAtKeyPattern),
  // Any UUID the table holds (z.uuid() would insist on an RFC 9562 version, which ids written by other means need not have).
  id: z.guid(),
});
