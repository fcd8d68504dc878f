import { createdAtKeyPattern, createdAtKeySql, keysetPageQuery, type KeysetPageRead } from '../../src/keyset-page';

/** A list of `things t`, scoped by owner, with two optional filters. */
function readOf(changes: Partial<KeysetPageRead> & { colour?: string; size?: number } = {}): KeysetPageRead {
  const { colour, size, ...read } = changes;
  return {
    columns: 't.id, t.colour',
    from: 'FROM things t',
    createdAtColumn: 't.created_at',
    idColumn: 't.id',
    scope: [(p) => `t.owner_id = ${p}`, 'owner-1'],
    filters: [
      [(p) => `t.colour = ${p}`, colour],
      [(p) => `t.size > ${p}`, size],
    ],
    after: undefined,
    rowCount: 21,
    ...read,
  };
}

/** The statement on one line, so the assertions read as SQL. */
function oneLine(sql: string): string {
  return sql.replace(/\s+/g, ' ');
}

describe('a keyset page query', () => {
  test('when neither a filter nor a position is given, then the scope is $1, the order is newest first by (created_at, id) and the row count is the limit', () => {
    const { sql, values } = keysetPageQuery(readOf());

    expect(oneLine(sql)).toBe('SELECT t.id, t.colour FROM things t WHERE t.owner_id = $1 ORDER BY t.created_at DESC, t.id DESC LIMIT $2');
    expect(values).toEqual(['owner-1', 21]);
  });

  test('when some filters are given, then only those are in the statement, numbered in the order they are listed', () => {
    const onlySize = keysetPageQuery(readOf({ size: 3 }));
    const both = keysetPageQuery(readOf({ colour: 'red', size: 3 }));

    expect(oneLine(onlySize.sql)).toContain('WHERE t.owner_id = $1 AND t.size > $2 ORDER BY');
    expect(onlySize.values).toEqual(['owner-1', 3, 21]);
    expect(oneLine(both.sql)).toContain('WHERE t.owner_id = $1 AND t.colour = $2 AND t.size > $3 ORDER BY');
    expect(both.values).toEqual(['owner-1', 'red', 3, 21]);
  });

  test('when a position is given, then rows after it are those below it as a row, compared as timestamptz and uuid, after the filters', () => {
    const createdAt = '2024-06-10T00:00:00.123456Z';
    const { sql, values } = keysetPageQuery(readOf({ colour: 'red', after: { createdAt, id: 'row-9' } }));

    expect(oneLine(sql)).toBe(
      'SELECT t.id, t.colour FROM things t WHERE t.owner_id = $1 AND t.colour = $2 AND (t.created_at, t.id) < ($3::timestamptz, $4::uuid) ORDER BY t.created_at DESC, t.id DESC LIMIT $5',
    );
    expect(values).toEqual(['owner-1', 'red', createdAt, 'row-9', 21]);
  });

  test('when the id column is text, then the position’s id is compared as text', () => {
    const { sql } = keysetPageQuery(readOf({ idType: 'text', after: { createdAt: '2024-06-10T00:00:00.123456Z', id: 'PKB-1-AB' } }));

    expect(oneLine(sql)).toContain('(t.created_at, t.id) < ($2::timestamptz, $3::text)');
  });

  test('when a filter names $1, then it is the scope value, whatever filters come before it', () => {
    const read = readOf({ colour: 'red' });
    const { sql, values } = keysetPageQuery({ ...read, filters: [...read.filters, [(p) => `t.parent = (SELECT id FROM parents WHERE name = ${p} AND owner_id = $1)`, 'p']] });

    expect(oneLine(sql)).toContain('t.parent = (SELECT id FROM parents WHERE name = $3 AND owner_id = $1)');
    expect(values[0]).toBe('owner-1');
  });

  test('when a filter value is null or zero, then it is a value asked for, not a filter left out', () => {
    const { values } = keysetPageQuery(readOf({ size: 0 }));
    const withNull = keysetPageQuery({ ...readOf(), filters: [[(p) => `t.colour = ${p}`, null]] });

    expect(values).toEqual(['owner-1', 0, 21]);
    expect(withNull.values).toEqual(['owner-1', null, 21]);
  });
});

describe('the position key of a row', () => {
  test('when the created_at column is named, then it is read as UTC text to the microsecond in created_at_key', () => {
    expect(createdAtKeySql('r.created_at')).toBe(`to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_key`);
  });

  test.each([
    ['2024-06-10T00:00:00.123456Z', true],
    ['2024-06-10T00:00:00.123Z', false],
    ['2024-06-10T00:00:00.123456+00:00', false],
    ["2024-06-10T00:00:00.123456Z' OR 1=1", false],
  ])('when a cursor carries %s, then it is a position key: %s', (text, isKey) => {
    expect(createdAtKeyPattern.test(text)).toBe(isKey);
  });
});
