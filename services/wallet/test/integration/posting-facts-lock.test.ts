import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { limitWindowsAt } from '../../src/domain/limit-windows';
import { readPostingFactsAndLockAccounts } from '../../src/store/transfer-facts-store';
import { balanceOfPartner, createTestPartner, createTestUser, startWalletHarness, type WalletHarness } from './wallet-harness';

/**
 * The posting's lock statement must hand back every account it locked, with its newest balance,
 * whatever plan PostgreSQL picks: when it waited for a row another posting moved, the row is
 * re-read and must stay in the result. A locking scan joined to a subquery over the same table
 * lost that row under one plan (seen on a scratch database; the partner's balance then read 0 and
 * an affordable disbursement was refused with PKC_4002); the statement now takes its ids from an
 * InitPlan, and this test holds it to that under several forced plans.
 */
describe('the posting lock statement under a concurrent posting', () => {
  let harness: WalletHarness;

  beforeAll(async () => {
    harness = await startWalletHarness();
  });

  afterAll(async () => {
    await harness.stop();
  });

  test.each([
    ['the planner’s own choice', []],
    ['hash joins only (no nested loops, no index scans)', ['SET enable_nestloop = off', 'SET enable_indexscan = off', 'SET enable_bitmapscan = off']],
    ['nested loops over a sorted, de-duplicated subquery (no hash or merge joins, no hash aggregates)', ['SET enable_hashjoin = off', 'SET enable_mergejoin = off', 'SET enable_hashagg = off']],
    ['the plan of a new database (sequential scans of the subquery, a memoized index scan of the locked table)', ['SET enable_hashjoin = off', 'SET enable_mergejoin = off', 'SET enable_hashagg = off', 'SET enable_bitmapscan = off', 'SET random_page_cost = 1000']],
  ])('when another transaction moved the partner account while this one waited for its lock, with %s, then the locked balances hold it with its new balance', async (_plan, settings) => {
    const partnerId = await createTestPartner(harness, { USD: 50_000n });
    const user = await createTestUser(harness);
    const blocker = await harness.sql.connect();
    const waiter = new Client({ connectionString: harness.config.DATABASE_URL });
    await waiter.connect();
    try {
      await waiter.query('SET search_path = wallet');
      for (const setting of settings) await waiter.query(setting);
      await blocker.query('BEGIN');
      await blocker.query(`UPDATE ledger_accounts SET balance_minor = balance_minor WHERE kind = 'partner' AND partner_id = $1 AND currency = 'USD'`, [partnerId]);
      await waiter.query('BEGIN');
      const facts = readPostingFactsAndLockAccounts(
        waiter as never,
        { transferId: randomUUID(), userId: user.userId, tier: user.tier, partnerId, currency: 'USD', type: 'disbursement' },
        limitWindowsAt(new Date()),
      );
      // Let the waiter reach the lock, then release it with a committed change of the row.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await blocker.query('COMMIT');
      const read = await facts;
      await waiter.query('ROLLBACK');

      expect(read.partnerAccountId).toBeDefined();
      expect(read.lockedBalances.get(read.partnerAccountId ?? '')).toBe(await balanceOfPartner(harness, partnerId, 'USD'));
      expect(read.lockedBalances.get(read.partnerAccountId ?? '')).toBe(50_000n);
      expect(read.wallet && read.lockedBalances.has(read.wallet.accountId)).toBe(true);
    } finally {
      blocker.release();
      await waiter.end();
    }
  });
});
