import { randomUUID } from 'node:crypto';
import { createPool, ensureDatabase, type Pool } from '@pwa/db';
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
