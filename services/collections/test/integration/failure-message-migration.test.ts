import { randomUUID } from 'node:crypto';
import { migrate, type Pool } from '@pwa/db';
import { statusView } from '../../src/domain/collection-views';
import { collectionsMigrationDirectories, collectionsSchema } from '../../src/service-paths';
import { findByReferenceId } from '../../src/store/collection-store';
import { migrationsBefore } from '../../../../test/support/test-database';
import { openCollectionsDatabase, type TestDatabase } from './collections-harness';

/**
 * The failure_message migration adds a column and changes no row: a collection that failed before
 * it (failure_code alone) keeps its data and reads with the failureReason its code gets now.
 */
describe('the failure_message migration', () => {
  const earlierMigrations = migrationsBefore(collectionsMigrationDirectories, '1700000000002');
  let database: TestDatabase;
  let databaseUrl: string;
  let pool: Pool;

  beforeAll(async () => {
    database = await openCollectionsDatabase('collections_migration', { migrated: false });
    ({ databaseUrl, pool } = database);
  });

  afterAll(async () => {
    await database?.drop();
    earlierMigrations.remove();
  });

  test('when a failed row from before the migration is read after it, then the row is unchanged and its failureReason is its code with that code message', async () => {
    await migrate({ databaseUrl, schema: collectionsSchema, directories: [earlierMigrations.directory] });
    const referenceId = 'PKC-1714521600000-00112233445566778899AABBCCDDEEFF';
    await pool.query(
      `INSERT INTO collection_requests (id, reference_id, partner_id, external_id, quote_id, phone, recipient_name, currency, amount_minor, fee_minor, status, expires_at, failure_code)
       VALUES ($1, $2, $3, 'old-row', $4, '+231770000001', 'Musu', 'USD', 10000, 100, 'failed', now(), 'PKC_4001')`,
      [randomUUID(), referenceId, randomUUID(), randomUUID()],
    );
    const before = await pool.query('SELECT * FROM collection_requests');

    expect(await migrate({ databaseUrl, schema: collectionsSchema, directories: collectionsMigrationDirectories })).toContain('1700000000002_failure-message');

    const after = await pool.query('SELECT * FROM collection_requests');
    // The later migrations add columns too: refunded_minor (1700000001100) starts at 0 on every row.
    expect(after.rows).toEqual(before.rows.map((row: Record<string, unknown>) => ({ ...row, failure_message: null, refunded_minor: '0' })));
    expect(statusView((await findByReferenceId(pool, referenceId))!)).toMatchObject({
      status: 'failed',
      failureReason: { code: 'PKC_4001', message: 'User balance insufficient for amount plus fee' },
    });
    // Only failed rows may carry a message.
    await expect(pool.query("UPDATE collection_requests SET status = 'declined', failure_message = 'x' WHERE reference_id = $1", [referenceId])).rejects.toMatchObject({
      code: '23514',
      constraint: 'collection_requests_failure_message_only_when_failed',
    });
  });
});
