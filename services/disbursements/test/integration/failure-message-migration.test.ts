import { randomUUID } from 'node:crypto';
import { migrate, type Pool } from '@pwa/db';
import { statusView } from '../../src/domain/disbursement';
import { disbursementsMigrationDirectories, disbursementsSchema } from '../../src/service-paths';
import { findByReferenceId } from '../../src/store/disbursement-store';
import { migrationsBefore } from '../../../../test/support/test-database';
import { openDisbursementsDatabase, type TestDatabase } from './disbursements-harness';

/**
 * The failure_message migration adds a column and changes no row: a disbursement that failed before
 * it (failure_code alone) keeps its data and reads with the failureReason its code gets now.
 */
describe('the failure_message migration', () => {
  const earlierMigrations = migrationsBefore(disbursementsMigrationDirectories, '1700000000002');
  let database: TestDatabase;
  let databaseUrl: string;
  let pool: Pool;

  beforeAll(async () => {
    database = await openDisbursementsDatabase('disbursements_migration', { migrated: false });
    ({ databaseUrl, pool } = database);
  });

  afterAll(async () => {
    await database?.drop();
    earlierMigrations.remove();
  });

  test('when a failed row from before the migration is read after it, then the row is unchanged and its failureReason is its code with that code message', async () => {
    await migrate({ databaseUrl, schema: disbursementsSchema, directories: [earlierMigrations.directory] });
    const referenceId = 'PKD-1714521600000-00112233445566778899AABB';
    await pool.query(
      `INSERT INTO disbursements (disbursement_id, reference_id, partner_id, external_id, quote_id, phone, recipient_name, currency, amount_minor, fee_minor, status, failure_code, settled_at)
       VALUES ($1, $2, $3, 'old-row', $4, '+231770000001', 'Musu', 'USD', 1050, 36, 'failed', 'PKC_7003', now())`,
      [randomUUID(), referenceId, randomUUID(), randomUUID()],
    );
    const before = await pool.query('SELECT * FROM disbursements');

    expect(await migrate({ databaseUrl, schema: disbursementsSchema, directories: disbursementsMigrationDirectories })).toContain('1700000000002_failure-message');

    const after = await pool.query('SELECT * FROM disbursements');
    // Later migrations add columns too: the bulk payouts' (1700000001100) and the reversals' (1700000001200) are NULL on every row from before.
    expect(after.rows).toEqual(
      before.rows.map((row: Record<string, unknown>) => ({ ...row, failure_message: null, bulk_id: null, bulk_index: null, lease_until: null, reversal_transaction_id: null, reversed_at: null })),
    );
    const view = statusView((await findByReferenceId(pool, referenceId))!);
    expect(view).toMatchObject({ status: 'failed', netAmount: 0, failureCode: 'PKC_7003', failureReason: { code: 'PKC_7003', message: 'The wallet system could not be reached; nothing was posted' } });
    // Only failed and timed-out rows may carry a message.
    await expect(pool.query("UPDATE disbursements SET status = 'processing', failure_code = NULL, settled_at = NULL, failure_message = 'x' WHERE reference_id = $1", [referenceId])).rejects.toMatchObject({
      code: '23514',
      constraint: 'disbursements_failure_message_only_when_unsuccessful',
    });
  });
});
