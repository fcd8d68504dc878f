import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createPool, dropDatabase, ensureDatabase, migrate, prepareSchema, withTransaction } from '../../src';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { postgres: string } };

const databaseUrl = (() => {
  const url = new URL(serverUrls().postgres);
  url.pathname = `/pwa_db_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  return url.toString();
})();

/** A folder holding the given files (name to SQL). */
function folderWith(files: Record<string, string>, prefix = 'pwa-migrations-'): string {
  const directory = mkdtempSync(path.join(tmpdir(), prefix));
  for (const [name, sql] of Object.entries(files)) writeFileSync(path.join(directory, name), sql);
  return directory;
}

/** Three migrations where each needs the one before it: a shared first and last, a service's own between them. */
const sharedFiles = {
  '1700000000000_ledger.sql': '-- Up Migration\nCREATE TABLE ledger (id integer PRIMARY KEY);\n-- Down Migration\nDROP TABLE ledger;\n',
  '1700000000900_ledger-note.sql': '-- Up Migration\nALTER TABLE notes ADD COLUMN ledger_id integer REFERENCES ledger (id);\n-- Down Migration\nALTER TABLE notes DROP COLUMN ledger_id;\n',
};
const ownFiles = {
  '1700000000100_notes.sql': '-- Up Migration\nCREATE TABLE notes (id integer PRIMARY KEY);\n-- Down Migration\nDROP TABLE notes;\n',
};

async function recordedNames(schema: string): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ name: string }>(`SELECT name FROM ${schema}.schema_migrations ORDER BY id`)).rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

function migrationsFolder(): string {
  return folderWith({
    '1700000000000_accounts.sql': '-- Up Migration\nCREATE TABLE accounts (id integer PRIMARY KEY, balance_minor bigint NOT NULL CHECK (balance_minor >= 0));\n-- Down Migration\nDROP TABLE accounts;\n',
  });
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
      migrate({ databaseUrl, schema: 'replica_race', directories: [directory] }),
      migrate({ databaseUrl, schema: 'replica_race', directories: [directory] }),
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
    await migrate({ databaseUrl, schema: 'service_one', directories: [directory] });
    await migrate({ databaseUrl, schema: 'service_two', directories: [directory] });
    const one = createPool({ connectionString: databaseUrl, applicationName: 'test', schema: 'service_one' });
    const two = createPool({ connectionString: databaseUrl, applicationName: 'test', schema: 'service_two' });
    await one.query('INSERT INTO accounts VALUES (1, 100)');
    expect((await two.query('SELECT count(*)::int AS n FROM accounts')).rows[0]).toEqual({ n: 0 });
    await one.end();
    await two.end();
  });

  it('when a transaction fails, then withTransaction rolls everything back', async () => {
    const directory = migrationsFolder();
    await migrate({ databaseUrl, schema: 'rollback_case', directories: [directory] });
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
    await expect(migrate({ databaseUrl, schema: 'x; DROP TABLE y', directories: [migrationsFolder()] })).rejects.toThrow('Unsafe SQL identifier');
  });

  it('when a service’s migrations come from two folders, then they run as one list in timestamp order and are recorded by file name', async () => {
    const applied = await migrate({ databaseUrl, schema: 'two_folders', directories: [folderWith(sharedFiles), folderWith(ownFiles)] });
    const expected = ['1700000000000_ledger', '1700000000100_notes', '1700000000900_ledger-note'];
    expect(applied).toEqual(expected);
    expect(await recordedNames('two_folders')).toEqual(expected);
  });

  it('when a schema was migrated from one folder holding every file, then the same files split over two folders apply nothing and the run succeeds', async () => {
    expect(await migrate({ databaseUrl, schema: 'split_later', directories: [folderWith({ ...sharedFiles, ...ownFiles })] })).toHaveLength(3);
    expect(await migrate({ databaseUrl, schema: 'split_later', directories: [folderWith(sharedFiles), folderWith(ownFiles)] })).toEqual([]);
    expect(await recordedNames('split_later')).toEqual(['1700000000000_ledger', '1700000000100_notes', '1700000000900_ledger-note']);
  });

  it('when one file name is in two folders, then the run is refused before any SQL, since both copies would run under one name', async () => {
    await expect(migrate({ databaseUrl, schema: 'same_name_twice', directories: [folderWith(sharedFiles), folderWith(sharedFiles)] })).rejects.toThrow(
      /Migration 1700000000000_ledger\.sql is in both/,
    );
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      expect((await client.query("SELECT 1 FROM pg_namespace WHERE nspname = 'same_name_twice'")).rowCount).toBe(0);
    } finally {
      await client.end();
    }
  });

  it('when a folder’s path holds a glob character, then the run is refused rather than reading files the pattern would match elsewhere', async () => {
    await expect(migrate({ databaseUrl, schema: 'glob_folder', directories: [folderWith(ownFiles, 'pwa-[migrations]-')] })).rejects.toThrow('glob character');
  });

  it('when a process starts with MIGRATIONS_AT_BOOT=verify, then it applies nothing, refuses a schema that lacks a shipped migration naming it, and passes once a run applied them', async () => {
    const shared = folderWith(sharedFiles);
    const own = folderWith(ownFiles);
    const options = { service: 'notes', databaseUrl, schema: 'verified_at_boot', directories: [shared, own] };
    await expect(prepareSchema('verify', options)).rejects.toThrow(
      'the verified_at_boot schema lacks 3 migration(s) this build ships (1700000000000_ledger, 1700000000100_notes, 1700000000900_ledger-note); run the service\'s migration Job (node services/notes/dist/migrate.js) first',
    );
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      expect((await client.query("SELECT 1 FROM pg_namespace WHERE nspname = 'verified_at_boot'")).rowCount).toBe(0);
      expect(await prepareSchema('apply', options)).toEqual(['1700000000000_ledger', '1700000000100_notes', '1700000000900_ledger-note']);
      expect(await prepareSchema('verify', options)).toEqual([]);
      // A newer build ships one more: verifying names it and leaves the schema as it was.
      writeFileSync(path.join(own, '1700000001000_notes-body.sql'), '-- Up Migration\nALTER TABLE notes ADD COLUMN body text;\n-- Down Migration\nALTER TABLE notes DROP COLUMN body;\n');
      await expect(prepareSchema('verify', options)).rejects.toThrow('lacks 1 migration(s) this build ships (1700000001000_notes-body)');
      const columns = await client.query("SELECT column_name FROM information_schema.columns WHERE table_schema = 'verified_at_boot' AND table_name = 'notes' ORDER BY column_name");
      expect(columns.rows.map((row) => row.column_name)).toEqual(['id', 'ledger_id']);
    } finally {
      await client.end();
    }
  });

  it('when a schema has every shipped migration, then a start applies nothing without waiting for the lock a running migration holds', async () => {
    const directory = migrationsFolder();
    await migrate({ databaseUrl, schema: 'up_to_date', directories: [directory] });
    const holder = new Client({ connectionString: databaseUrl });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(hashtext($1))', ['pwa-migrate:up_to_date']);
      const startedAt = Date.now();
      await expect(migrate({ databaseUrl, schema: 'up_to_date', directories: [directory] })).resolves.toEqual([]);
      // Another file shipped: that start needs the lock, and waits for it.
      writeFileSync(path.join(directory, '1700000000500_more.sql'), '-- Up Migration\nCREATE TABLE more (id integer PRIMARY KEY);\n-- Down Migration\nDROP TABLE more;\n');
      const waiting = migrate({ databaseUrl, schema: 'up_to_date', directories: [directory] });
      const outcome = await Promise.race([waiting.then(() => 'applied'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 1_000))]);
      expect([outcome, Date.now() - startedAt < 30_000]).toEqual(['waiting', true]);
      await holder.query('SELECT pg_advisory_unlock(hashtext($1))', ['pwa-migrate:up_to_date']);
      await expect(waiting).resolves.toEqual(['1700000000500_more']);
    } finally {
      await holder.end();
    }
  });
});
