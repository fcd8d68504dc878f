import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPool, dropDatabase, ensureDatabase, migrate, type Pool } from '@pwa/db';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('./server-urls') as { serverUrls: () => { postgres: string } };

/**
 * A database of its own for one test file, created empty on the test Postgres server, so files
 * running side by side never meet: pwa_<label>_<16 hex>. Returns its URL; the caller drops it.
 */
export async function createTestDatabase(label: string): Promise<string> {
  const url = new URL(serverUrls().postgres);
  url.pathname = `/pwa_${label}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const databaseUrl = url.toString();
  await ensureDatabase(databaseUrl);
  return databaseUrl;
}

/**
 * A pool for the SQL a test runs itself, as an operator with psql would, with the service's schema
 * first on the search path. The database is dropped (WITH FORCE) right after the pool ends, which
 * does not wait for its connections to close; createPool ignores the errors of those connections.
 */
export function openTestSql(databaseUrl: string, schema: string): Pool {
  return createPool({ connectionString: databaseUrl, applicationName: `${schema}-tests`, schema, maxConnections: 4 });
}

export interface TestDatabase {
  databaseUrl: string;
  /** A pool with the service's schema first on the search path. */
  pool: Pool;
  /** Ends the pool and drops the database. */
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** Names the database: pwa_<label>_<16 hex>. */
  label: string;
  schema: string;
  /** The service's migration folders, applied before the pool opens; none when the test migrates itself. */
  migrationDirectories?: readonly string[];
}

/** A database of its own for a test of a service's store or migrations, without the service. */
export async function openTestDatabase(options: TestDatabaseOptions): Promise<TestDatabase> {
  const databaseUrl = await createTestDatabase(options.label);
  if (options.migrationDirectories !== undefined) await migrate({ databaseUrl, schema: options.schema, directories: options.migrationDirectories });
  const pool = openTestSql(databaseUrl, options.schema);
  return {
    databaseUrl,
    pool,
    drop: async () => {
      await pool.end();
      await dropDatabase(databaseUrl);
    },
  };
}

/**
 * A temporary folder holding a service's migrations from before `firstLeftOut` (a file name, or
 * its timestamp), so a test can migrate a schema as it was, write rows, and then migrate the rest.
 */
export function migrationsBefore(directories: readonly string[], firstLeftOut: string): { directory: string; remove(): void } {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'pwa-migrations-before-'));
  for (const source of directories) {
    for (const file of readdirSync(source).filter((name) => name < firstLeftOut)) copyFileSync(path.join(source, file), path.join(directory, file));
  }
  return { directory, remove: () => rmSync(directory, { recursive: true, force: true }) };
}
