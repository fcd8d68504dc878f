import { randomUUID } from 'node:crypto';
import { createPool, dropDatabase, ensureDatabase, withTransaction, type Pool } from '../../src';
import { preparedStatementsPerConnectionMax } from '../../src/prepared-statements';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { postgres: string } };

const databaseUrl = (() => {
  const url = new URL(serverUrls().postgres);
  url.pathname = `/pwa_db_prepared_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  return url.toString();
})();

let pool: Pool;

beforeAll(async () => {
  await ensureDatabase(databaseUrl);
  pool = createPool({ connectionString: databaseUrl, applicationName: 'prepared-statements-test', schema: 'public', maxConnections: 1 });
  await pool.query('CREATE TABLE IF NOT EXISTS items (id integer PRIMARY KEY, label text NOT NULL)');
});

afterAll(async () => {
  await pool.end();
  await dropDatabase(databaseUrl);
});

async function preparedOnTheConnection(): Promise<string[]> {
  const result = await pool.query<{ statement: string }>("SELECT statement FROM pg_prepared_statements WHERE name LIKE 'pwa\\_%' ORDER BY statement");
  return result.rows.map((row) => row.statement);
}

describe('prepared statements on every pooled connection', () => {
  it('when a parameterised statement runs twice, then the connection prepared it once and both calls answered', async () => {
    const insert = 'INSERT INTO items (id, label) VALUES ($1, $2)';
    await pool.query(insert, [1, 'one']);
    await pool.query({ text: insert, values: [2, 'two'] });
    const rows = await pool.query<{ label: string }>('SELECT label FROM items WHERE id = ANY($1::int[]) ORDER BY id', [[1, 2]]);
    expect(rows.rows.map((row) => row.label)).toEqual(['one', 'two']);
    const prepared = await preparedOnTheConnection();
    expect(prepared.filter((statement) => statement === insert)).toHaveLength(1);
  });

  it('when a statement has no parameters, then it runs with the simple protocol and is not prepared', async () => {
    await pool.query('SELECT 42 AS answer');
    expect(await preparedOnTheConnection()).not.toContain('SELECT 42 AS answer');
  });

  it('when a prepared statement fails, then the error reaches the caller and the next call with the same text works', async () => {
    const insert = 'INSERT INTO items (id, label) VALUES ($1, $2)';
    await expect(pool.query(insert, [1, 'duplicate'])).rejects.toMatchObject({ code: '23505' });
    await expect(withTransaction(pool, (client) => client.query(insert, [3, 'three']))).resolves.toMatchObject({ rowCount: 1 });
  });

  it('when a connection has prepared the most statements it keeps, then further texts still run, unnamed', async () => {
    const before = (await preparedOnTheConnection()).length;
    const distinctTexts = preparedStatementsPerConnectionMax - before + 5;
    for (let index = 0; index < distinctTexts; index += 1) {
      const result = await pool.query<{ value: number }>(`SELECT $1::int + ${index} AS value`, [1]);
      expect(result.rows[0]?.value).toBe(1 + index);
    }
    expect(await preparedOnTheConnection()).toHaveLength(preparedStatementsPerConnectionMax);
  });
});
