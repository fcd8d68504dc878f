// The migration session's lock_timeout: a migration queued behind a long transaction on its table
// fails (and rolls back whole) instead of waiting, while waiting for another replica's advisory
// lock is not bounded by it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { dropDatabase, ensureDatabase, migrate } from '../../src/migrate';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { postgres: string } };

const databaseUrl = (() => {
  const url = new URL(serverUrls().postgres);
  url.pathname = `/pwa_db_lock_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  return url.toString();
})();

function folderWith(files: Record<string, string>): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'pwa-migrations-'));
  for (const [name, sql] of Object.entries(files)) writeFileSync(path.join(directory, name), sql);
  return directory;
}

const createAccounts = {
  '1700000000000_accounts.sql': '-- Up Migration\nCREATE TABLE accounts (id integer PRIMARY KEY);\n-- Down Migration\nDROP TABLE accounts;\n',
};
const addNote = {
  ...createAccounts,
  '1700000000100_note.sql': '-- Up Migration\nALTER TABLE accounts ADD COLUMN note text;\n-- Down Migration\nALTER TABLE accounts DROP COLUMN note;\n',
};

async function connect(): Promise<Client> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  return client;
}

beforeAll(async () => {
  await ensureDatabase(databaseUrl);
});

afterAll(async () => {
  await dropDatabase(databaseUrl);
});

describe('migration lock_timeout', () => {
  it('when a transaction holds a lock on the table a migration alters, then the migration fails on lock_timeout, applies nothing, and succeeds once the lock is gone', async () => {
    await migrate({ databaseUrl, schema: 'held_table', directories: [folderWith(createAccounts)] });
    const holder = await connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT count(*) FROM held_table.accounts'); // ACCESS SHARE until COMMIT
      await expect(migrate({ databaseUrl, schema: 'held_table', directories: [folderWith(addNote)], lockTimeoutMs: 200 })).rejects.toThrow(/lock timeout/);
      const columns = await holder.query("SELECT column_name FROM information_schema.columns WHERE table_schema = 'held_table' AND table_name = 'accounts'");
      expect(columns.rows.map((row: { column_name: string }) => row.column_name)).toEqual(['id']);
      await holder.query('COMMIT');
    } finally {
      await holder.end();
    }
    expect(await migrate({ databaseUrl, schema: 'held_table', directories: [folderWith(addNote)], lockTimeoutMs: 200 })).toEqual(['1700000000100_note']);
  });

  it('when another replica holds the schema’s advisory lock longer than lock_timeout, then the migration waits for it and applies', async () => {
    const holder = await connect();
    let released = false;
    try {
      await holder.query('SELECT pg_advisory_lock(hashtext($1))', ['pwa-migrate:waiting_replica']);
      const run = migrate({ databaseUrl, schema: 'waiting_replica', directories: [folderWith(createAccounts)], lockTimeoutMs: 50 });
      await new Promise((resolve) => setTimeout(resolve, 400));
      await holder.query('SELECT pg_advisory_unlock(hashtext($1))', ['pwa-migrate:waiting_replica']);
      released = true;
      expect(await run).toEqual(['1700000000000_accounts']);
    } finally {
      if (!released) await holder.query('SELECT pg_advisory_unlock_all()');
      await holder.end();
    }
  });

  it('when the migration session runs, then its lock_timeout is the configured one', async () => {
    const directory = folderWith({
      '1700000000000_record.sql': "-- Up Migration\nCREATE TABLE recorded AS SELECT current_setting('lock_timeout') AS lock_timeout;\n-- Down Migration\nDROP TABLE recorded;\n",
    });
    await migrate({ databaseUrl, schema: 'recorded_setting', directories: [directory], lockTimeoutMs: 1500 });
    const client = await connect();
    try {
      expect((await client.query('SELECT lock_timeout FROM recorded_setting.recorded')).rows).toEqual([{ lock_timeout: '1500ms' }]);
    } finally {
      await client.end();
    }
  });

});
