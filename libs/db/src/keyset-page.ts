/*
 * The one way a list is read a page at a time: newest first by (created_at, id), after the last
 * row of the previous page. The position is compared as a row, `(created_at, id) < ($a, $b)`,
 * and the order is `created_at DESC, id DESC`, so an index on (scope, created_at DESC, id DESC)
 * answers the page as one range scan that stops after the rows asked for: no sort, no offset, and
 * a page costs the same however deep it is. Rows created in the same instant are ordered by id, so
 * a page boundary among them neither skips nor repeats a row.
 */

/** Where the previous page ended: its last row's created_at and id. */
export interface KeysetPosition {
  /**
   * The row's created_at. For a microsecond column, the text `createdAtKeySql` read (a JavaScript
   * Date would cut the microseconds, and the next page would then skip or repeat rows created in
   * the same millisecond); a Date is exact only for a column of millisecond precision.
   */
  createdAt: string | Date;
  id: string;
}

/**
 * One condition of a list: its SQL, naming its value by the placeholder it is given (`$3`), and the
 * value. A filter whose value is undefined was not asked for and is left out.
 */
export type KeysetCondition = readonly [sql: (placeholder: string) => string, value: unknown];

export interface KeysetPageRead {
  /** The select list. */
  columns: string;
  /** `FROM table`, with its alias and joins. */
  from: string;
  /** The order's columns as the statement names them: `created_at` and `id`, or `r.created_at` and `r.id`. */
  createdAtColumn: string;
  idColumn: string;
  /** The id column's type, as the position's id is cast: a UUID (the default), or text (a bulk's PKB-… id). */
  idType?: 'uuid' | 'text';
  /**
   * What every row of the list is (the partner whose list it is): the leading column of the list's
   * indexes. Its value is always $1, so a filter may name it too.
   */
  scope: readonly [sql: (placeholder: string) => string, value: string];
  /** The filters asked for, in order; their values take $2, $3 and so on. */
  filters: readonly KeysetCondition[];
  after: KeysetPosition | undefined;
  /** Rows to read: the page size plus one, which only says that there is more. */
  rowCount: number;
}

/** The page's statement and its values. */
export function keysetPageQuery(read: KeysetPageRead): { sql: string; values: unknown[] } {
  const values: unknown[] = [];
  const placeholderOf = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  const [scopeSql, scopeValue] = read.scope;
  const conditions = [scopeSql(placeholderOf(scopeValue))];
  for (const [filterSql, value] of read.filters) {
    if (value !== undefined) conditions.push(filterSql(placeholderOf(value)));
  }
  if (read.after !== undefined) {
    const createdAt = placeholderOf(read.after.createdAt);
    const id = placeholderOf(read.after.id);
    conditions.push(`(${read.createdAtColumn}, ${read.idColumn}) < (${createdAt}::timestamptz, ${id}::${read.idType ?? 'uuid'})`);
  }
  const limit = placeholderOf(read.rowCount);
  const sql = `SELECT ${read.columns}
     ${read.from} WHERE ${conditions.join(' AND ')}
     ORDER BY ${read.createdAtColumn} DESC, ${read.idColumn} DESC LIMIT ${limit}`;
  return { sql, values };
}

/**
 * A row's created_at as UTC text to the microsecond, in a column named `created_at_key`: what a
 * cursor carries as the position's createdAt (it reads back exactly; see KeysetPosition).
 */
export function createdAtKeySql(createdAtColumn: string): string {
  return `to_char(${createdAtColumn} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_key`;
}

/** The shape of the text createdAtKeySql reads: what a cursor's createdAt must look like. */
export const createdAtKeyPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
