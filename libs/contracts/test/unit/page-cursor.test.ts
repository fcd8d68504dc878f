import { z } from 'zod';
import { decodePageCursor, encodePageCursor, pageOfRows, pageQueryFields, type PageCursorScope } from '../../src/public/pagination';

const position = z.strictObject({ createdAt: z.iso.datetime(), id: z.string().regex(/^[0-9a-f-]{36}$/) });
const scope: PageCursorScope = { partnerId: 'partner-a', list: 'disbursements', filters: { status: 'completed', currency: undefined } };
const at = { createdAt: '2026-11-25T10:00:00.000Z', id: '0b9e3c52-7a41-4d2e-9f0c-5e8a1b6d2c47' };

describe('page cursors', () => {
  it('when a cursor is read in the scope it was made for, then it gives back the position', () => {
    expect(decodePageCursor(scope, encodePageCursor(scope, at), position)).toEqual(at);
  });

  it('when undefined filters are left out or given in another order, then the scope is the same', () => {
    const cursor = encodePageCursor({ ...scope, filters: { currency: undefined, status: 'completed' } }, at);
    expect(decodePageCursor({ ...scope, filters: { status: 'completed' } }, cursor, position)).toEqual(at);
  });

  it.each([
    ['another partner', { ...scope, partnerId: 'partner-b' }],
    ['another list', { ...scope, list: 'collections' }],
    ['other filters', { ...scope, filters: { status: 'failed' } }],
    ['no filters', { ...scope, filters: {} }],
  ])('when a cursor is read by %s, then it is refused', (_name, otherScope) => {
    expect(decodePageCursor(otherScope, encodePageCursor(scope, at), position)).toBeUndefined();
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'abc+/='],
    ['not JSON', Buffer.from('{nope', 'utf8').toString('base64url')],
    ['another version', Buffer.from(JSON.stringify({ v: 2, s: 'x', p: at }), 'utf8').toString('base64url')],
    ['too long', 'a'.repeat(501)],
  ])('when a cursor is %s, then it is refused', (_name, cursor) => {
    expect(decodePageCursor(scope, cursor, position)).toBeUndefined();
  });

  it('when a cursor of the right scope carries a position of the wrong shape, then it is refused', () => {
    expect(decodePageCursor(scope, encodePageCursor(scope, { createdAt: "'; drop table x; --", id: at.id }), position)).toBeUndefined();
  });

  it('when limit + 1 rows were read, then the page shows limit rows and a cursor after the last shown', () => {
    const rows = [1, 2, 3, 4].map((n) => ({ n }));
    const page = pageOfRows(rows, 3, scope, (row) => ({ n: row.n }), (row) => row.n * 10);
    expect(page.items).toEqual([10, 20, 30]);
    expect(page.hasMore).toBe(true);
    expect(decodePageCursor(scope, page.nextCursor ?? '', z.strictObject({ n: z.number() }))).toEqual({ n: 3 });
  });

  it('when limit or fewer rows were read, then it is the last page', () => {
    const page = pageOfRows([{ n: 1 }], 3, scope, (row) => row, (row) => row.n);
    expect(page).toEqual({ items: [1], nextCursor: null, hasMore: false });
  });

  it.each([['0'], ['101'], ['1.5'], ['ten']])('when limit is %s, then the query is refused', (limit) => {
    expect(z.object(pageQueryFields).safeParse({ limit }).success).toBe(false);
  });

  it('when limit is absent, then a page holds 20', () => {
    expect(z.object(pageQueryFields).parse({})).toEqual({ limit: 20 });
  });
});
