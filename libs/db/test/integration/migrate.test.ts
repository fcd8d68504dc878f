import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createPool, dropDatabase, ensureDatabase, migrate, withTransaction } from '../../src';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { postgres: string } };

const databaseUrl = (() => {
  const url = new URL(serverUrls().postgres);
  url.pathname = `/pwa_db_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  return url.toString();
})();

function migrationsFolder(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'pwa-migrations-'));
  writeFileSync(
    path.join(directory, '1700000000000_accounts.sql'),
    '-- Up Migration\nCREATE TABLE accounts (id integer PRIMARY KEY, balance_minor bigint NOT NULL CHECK (balance_minor >= 0));\n-- Down Migration\nDROP TABLE accounts;\n',
  );
  return directory;
}

beforeAll(async () => {
  await ensureDatabase(databaseUrl);
});

afterAll(async () => {
  await dropDatabase(databaseUrl);
});

describe('per-service migrations', () => {
  it('when two replicas migrate the same schema at once, then both succeed and each migration is applied once', async () => {
    const directory = migrationsFolder();
    const results = await Promise.all([
      migrate({ databaseUrl, schema: 'replica_race', directory }),
      migrate({ databaseUrl, schema: 'replica_race', directory }),
    ]);
    expect(results.flat()).toEqual(['1700000000000_accounts']);
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    const applied = await client.query('SELECT name FROM replica_race.schema_migrations');
    await client.end();
    expect(applied.rows).toEqual([{ name: '1700000000000_accounts' }]);
  });

  it('when a pool is created for a schema, then unqualified names resolve in that schema only', async () => {
    const directory = migrationsFolder();
    await migrate({ databaseUrl, schema: 'service_one', directory });
    await migrate({ databaseUrl, schema: 'service_two', directory });
    const one = createPool({ connectionString: databaseUrl, applicationName: 'test', schema: 'service_one' });
    const two = createPool({ connectionString: databaseUrl, applicationName: 'test', schema: 'service_two' });
    await one.query('INSERT INTO accounts VALUES (1, 100)');
    expect((await two.query('SELECT count(*)::int AS n FROM accounts')).rows[0]).toEqual({ n: 0 });
    await one.end();
    await two.end();
  });

  it('when a transaction fails, then withTransaction rolls everything back', async () => {
    const directory = migrationsFolder();
    await migrate({ databaseUrl, schema: 'rollback_case', directory });
    const pool = createPool({ connectionString: databaseUrl, applicationName: 'test', schema: 'rollback_case' });
    await expect(
      withTransaction(pool, async (client) => {
        await client.query('INSERT INTO accounts VALUES (1, 100)');
        await client.query('INSERT INTO accounts VALUES (2, -1)'); // violates the check
      }),
    ).rejects.toThrow();
    expect((await pool.query('SELECT count(*)::int AS n FROM accounts')).rows[0]).toEqual({ n: 0 });
    await pool.end();
  });

  it('when a schema name is not a plain identifier, then it is refused before any SQL runs', async () => {
    await expect(migrate({ databaseUrl, schema: 'x; DROP TABLE y', directory: migrationsFolder() })).rejects.toThrow('Unsafe SQL identifier');
  });
});
