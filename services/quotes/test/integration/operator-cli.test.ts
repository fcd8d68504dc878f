import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { Pool } from 'pg';
import { dropDatabase, ensureDatabase } from '@pwa/db';
import { defaultFeeSchedules } from '../../src/domain/default-fee-schedules';
import { storedTiersOf } from '../../src/domain/fee-schedule';
import { BatchedOperator, type OperatorAnswer } from '../../../../test/support/batched-operator';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { postgres: string } };

const run = promisify(execFile);
const cliPath = path.join(__dirname, '..', '..', 'dist', 'cli', 'main.js');
const databaseUrl = (() => {
  const url = new URL(serverUrls().postgres);
  url.pathname = `/pwa_quotes_cli_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  return url.toString();
})();

// The sandbox commands run in one batch process (test/support/batched-operator.ts); the production
// cases start a process each (their stderr notice is about the process).
const sandboxBatch = new BatchedOperator('quotes', () => ({ PATH: process.env.PATH, DATABASE_URL: databaseUrl, ENVIRONMENT: 'sandbox', LOG_LEVEL: 'silent' }));
const operator = (...args: string[]): Promise<OperatorAnswer> => sandboxBatch.run(...args);

async function operatorIn(environment: string, ...args: string[]): Promise<{ code: number; json: any; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', [cliPath, ...args, '--json'], {
      env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, ENVIRONMENT: environment, LOG_LEVEL: 'silent' },
    });
    return { code: 0, json: JSON.parse(stdout), stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, json: JSON.parse(failed.stdout), stderr: failed.stderr };
  }
}

beforeAll(async () => {
  await ensureDatabase(databaseUrl);
});

afterAll(async () => {
  await sandboxBatch.close();
  await dropDatabase(databaseUrl);
});

describe('quotes operator CLI (built)', () => {
  it('when the schema is first migrated, then the seeded schedules are exactly the documented defaults, revision 1', async () => {
    const shown = await operator('show-fees');

    expect(shown.code).toBe(0);
    const expected = defaultFeeSchedules.map((schedule) => ({
      type: schedule.type,
      currency: schedule.currency,
      tiers: storedTiersOf(schedule.tiers),
      minimumFeeMinor: schedule.minimumFeeMinor.toString(),
      maximumFeeMinor: schedule.maximumFeeMinor.toString(),
      revision: 1,
    }));
    const seeded = (shown.json.schedules as Record<string, unknown>[]).map(({ updatedAt: _updatedAt, ...schedule }) => schedule);
    expect(seeded).toEqual(expect.arrayContaining(expected));
    expect(seeded).toHaveLength(4);
  });

  it('when the operator sets tiers and bounds, then they replace the schedule, the revision goes up and the history keeps both', async () => {
    const tiers = '[{"upToMinor":"100000","flatMinor":"0","basisPoints":100},{"upToMinor":null,"flatMinor":"500","basisPoints":50}]';

    const changed = await operator('set-fee', '--type', 'collection', '--currency', 'USD', '--tiers', tiers, '--min', '0.50', '--max', '100');

    expect(changed.code).toBe(0);
    expect(changed.json).toMatchObject({
      type: 'collection',
      currency: 'USD',
      tiers: JSON.parse(tiers),
      minimumFeeMinor: '50',
      maximumFeeMinor: '10000',
      revision: 2,
    });
    const onlyMax = await operator('set-fee', '--type', 'collection', '--currency', 'USD', '--max', '99.99');
    expect(onlyMax.json).toMatchObject({ tiers: JSON.parse(tiers), minimumFeeMinor: '50', maximumFeeMinor: '9999', revision: 3 });
    const shown = await operator('show-fees', '--type', 'collection', '--currency', 'USD');
    expect(shown.json.schedules).toEqual([expect.objectContaining({ revision: 3 })]);
    const database = new Pool({ connectionString: databaseUrl, max: 1 });
    // A connection still closing when the database is dropped is terminated; expected, not a test error.
    database.on('error', () => undefined);
    try {
      const history = await database.query(
        `SELECT revision, maximum_fee_minor FROM quotes.fee_schedule_revisions WHERE quote_type = 'collection' AND currency = 'USD' ORDER BY revision`,
      );
      expect(history.rows).toEqual([
        { revision: 1, maximum_fee_minor: '2000' },
        { revision: 2, maximum_fee_minor: '10000' },
        { revision: 3, maximum_fee_minor: '9999' },
      ]);
    } finally {
      await database.end();
    }
  });

  it.each([
    [['set-fee', '--type', 'refund', '--currency', 'USD', '--min', '1'], 'Unknown type'],
    [['set-fee', '--type', 'collection', '--currency', 'EUR', '--min', '1'], 'Unknown currency'],
    [['set-fee', '--type', 'collection', '--currency', 'LRD'], 'at least one of'],
    [['set-fee', '--type', 'collection', '--currency', 'LRD', '--min', '1.234'], '--min'],
    [['set-fee', '--type', 'collection', '--currency', 'LRD', '--min', '5000', '--max', '10'], 'maximum fee'],
    [['set-fee', '--type', 'collection', '--currency', 'LRD', '--tiers', '[{"upToMinor":"100"}]'], 'open-ended'],
    [['set-fee', '--type', 'collection', '--currency', 'LRD', '--tiers', 'not json'], 'JSON array'],
    [['unknown-command'], 'Unknown command'],
  ])('when the operator runs %j, then it fails with exit 2, a JSON error, and changes nothing', async (args, message) => {
    const before = await operator('show-fees', '--type', 'collection', '--currency', 'LRD');

    const result = await operator(...args);

    expect(result.code).toBe(2);
    expect(result.json.error).toContain(message);
    expect((await operator('show-fees', '--type', 'collection', '--currency', 'LRD')).json).toEqual(before.json);
  });

  it('when set-fee runs in production without --break-glass, then it exits 2 naming the back-office command and the schedule keeps its revision; with it, it runs and says so', async () => {
    const before = (await operator('show-fees', '--type', 'disbursement', '--currency', 'LRD')).json.schedules[0].revision as number;
    const refused = await operatorIn('production', 'set-fee', '--type', 'disbursement', '--currency', 'LRD', '--max', '50');
    expect(refused.code).toBe(2);
    expect(refused.json.error).toContain('backoffice request-fee-schedule');
    expect(refused.json.error).toContain('--break-glass');
    expect((await operator('show-fees', '--type', 'disbursement', '--currency', 'LRD')).json.schedules[0].revision).toBe(before);
    const breakGlass = await operatorIn('production', 'set-fee', '--type', 'disbursement', '--currency', 'LRD', '--max', '50', '--break-glass', 'INC-4714 fee cap wrong, back-office down');
    expect(breakGlass.code).toBe(0);
    expect(breakGlass.json.revision).toBe(before + 1);
    expect(breakGlass.stderr).toMatch(/BREAK-GLASS by \S+: set-fee writes to the database directly.*INC-4714.*backoffice request-fee-schedule/);
  });
});
