/** What the iterator reads from a page: its items and the cursor of the next page (null or absent on the last). */
export interface PageView<Item> {
  items: readonly Item[];
  nextCursor: string | null | undefined;
}

export interface PaginateOptions {
  /** Stop after this many pages (default 10,000): a bound on the loop, whatever the server says. */
  pagesMax?: number;
}

/**
 * Every item of a keyset-paged list, page after page: `fetchPage(undefined)` for the first page,
 * then `fetchPage(nextCursor)` until a page has no nextCursor. Pages are fetched lazily (one
 * request when the previous page's items are used up), so breaking out of a `for await` stops.
 * A cursor that repeats is a server fault and throws rather than looping.
 */
export async function* paginate<Page, Item>(
  fetchPage: (cursor: string | undefined) => Promise<Page>,
  view: (page: Page) => PageView<Item>,
  options: PaginateOptions = {},
): AsyncGenerator<Item, void, undefined> {
  const pagesMax = options.pagesMax ?? 10_000;
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pageCount = 1; pageCount <= pagesMax; pageCount += 1) {
    const page = view(await fetchPage(cursor));
    yield* page.items;
    const next = page.nextCursor;
    if (next === null || next === undefined || next === '') return;
    if (seen.has(next)) throw new Error(`the list answered a cursor it had already given (page ${pageCount}); stopping`);
    seen.add(next);
    cursor = next;
  }
}

/** The view of a `{ items, nextCursor, hasMore }` page (libs/contracts pagination). */
export function itemsPage<Item>(page: { items: Item[]; nextCursor: string | null; hasMore: boolean }): PageView<Item> {
  return { items: page.items, nextCursor: page.hasMore ? page.nextCursor : null };
}
