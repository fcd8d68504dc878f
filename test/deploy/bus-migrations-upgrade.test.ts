/**
 * The outbox, inbox and outbox-parking migrations moved from each service's folder to libs/bus,
 * from where every service applies them to its own schema. A database migrated before the move
 * records them by file name only (node-pg-migrate keeps no checksum), in the same order, so it
 * must find nothing to apply afterwards. Each schema here is first migrated from a folder laid out
 * as before (the service's files with the shared ones beside them), then by the service's real list.
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { busMigrationsDirectory } from '@pwa/bus';
import { dropDatabase, ensureDatabase, migrate } from '@pwa/db';
import { authMigrationDirectories, authSchema } from '../../services/auth/src/service-paths';
import { collectionsMigrationDirectories, collectionsSchema } from '../../services/collections/src/service-paths';
import { disbursementsMigrationDirectories, disbursementsSchema } from '../../services/disbursements/src/service-paths';
import { quotesMigrationDirectories, quotesSchema } from '../../services/quotes/src/service-paths';
import { walletMigrationDirectories, walletSchema } from '../../services/wallet/src/service-paths';
import { webhooksMigrationDirectories, webhooksSchema } from '../../services/webhooks/src/service-paths';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../support/server-urls') as { serverUrls: () => { postgres: string } };

const services = [
  { schema: authSchema, directories: authMigrationDirectories },
  { schema: collectionsSchema, directories: collectionsMigrationDirectories },
  { schema: disbursementsSchema, directories: disbursementsMigrationDirectories },
  { schema: quotesSchema, directories: quotesMigrationDirectories },
  { schema: walletSchema, directories: walletMigrationDirectories },
  { schema: webhooksSchema, directories: webhooksMigrationDirectories },
];
const sharedNames = ['1700000000000_outbox-and-inbox', '1700000000900_outbox-parking'];

const databaseUrl = (() => {
  const url = new URL(serverUrls().postgres);
  url.pathname = `/pwa_bus_upgrade_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  return url.toString();
})();
const oldLayouts: string[] = [];

/** One folder holding every file of the given folders: a service's migrations folder as it was before the move. */
function folderAsBefore(directories: readonly string[]): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'pwa-migrations-before-'));
  oldLayouts.push(folder);
  for (const directory of directories) {
    for (const file of readdirSync(directory)) copyFileSync(path.join(directory, file), path.join(folder, file));
  }
  return folder;
}

/** Reads the bookkeeping tables; opened once the database exists. */
let reader: Client;

async function recordedNames(schema: string): Promise<string[]> {
  return (await reader.query<{ name: string }>(`SELECT name FROM ${schema}.schema_migrations ORDER BY run_on, id`)).rows.map((row) => row.name);
}

beforeAll(async () => {
  await ensureDatabase(databaseUrl);
  reader = new Client({ connectionString: databaseUrl });
  await reader.connect();
});

afterAll(async () => {
  await reader?.end();
  await dropDatabase(databaseUrl);
  for (const folder of oldLayouts) rmSync(folder, { recursive: true, force: true });
});

describe('the shared bus migrations on a database migrated before they moved', () => {
  it('when every service’s list is read, then it is libs/bus’s folder and the service’s own, and the shared files are no longer in the service’s folder', () => {
    for (const { directories } of services) {
      expect(directories[0]).toBe(busMigrationsDirectory);
      expect(directories).toHaveLength(2);
      expect(readdirSync(directories[1]!).filter((file) => sharedNames.some((name) => file.startsWith(name)))).toEqual([]);
    }
  });

  it.each(services)('when the $schema schema was migrated from its folder as it was, then its list now applies nothing and the recorded names stay as they were', async ({ schema, directories }) => {
    const appliedBefore = await migrate({ databaseUrl, schema, directories: [folderAsBefore(directories)] });
    expect(appliedBefore).toEqual(expect.arrayContaining(sharedNames));

    expect(await migrate({ databaseUrl, schema, directories })).toEqual([]);
    expect(await recordedNames(schema)).toEqual(appliedBefore);
  });
});
