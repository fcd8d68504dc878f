import { randomUUID } from 'node:crypto';
import type { PoolClient } from '@pwa/db';
import {
  balanceOfWallet,
  createTestPartner,
  createTestUser,
  expectLedgerInvariantsHold,
  getJson,
  postJson,
  startWalletHarness,
  transferBody,
  type WalletHarness,
} from './wallet-harness';

/**
 * The ledger's rules hold in the database itself, whoever writes: these tests write SQL directly,
 * as a buggy service version or an operator with psql would, and every write that breaks a rule fails.
 */
let harness: WalletHarness;

beforeAll(async () => {
  harness = await startWalletHarness();
});

afterAll(async () => {
  await expectLedgerInvariantsHold(harness);
  await harness.stop();
});

async function inTransaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await harness.sql.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

async function walletAccountId(phone: string, currency: string): Promise<string> {
  const result = await harness.sql.query<{ account_id: string }>(
    'SELECT w.account_id FROM users u JOIN wallets w ON w.user_id = u.user_id WHERE u.phone = $1 AND w.currency = $2',
    [phone, currency],
  );
  return result.rows[0]?.account_id ?? '';
}

async function partnerAccountId(partnerId: string, currency: string): Promise<string> {
  const result = await harness.sql.query<{ account_id: string }>(
    `SELECT account_id FROM ledger_accounts WHERE kind = 'partner' AND partner_id = $1 AND currency = $2`,
    [partnerId, currency],
  );
  return result.rows[0]?.account_id ?? '';
}

async function insertPostedTransfer(client: PoolClient, transferId: string, userId: string | null, partnerId: string): Promise<void> {
  await client.query(
    `INSERT INTO transfers (transfer_id, state, kind, transaction_id, user_id, partner_id, currency, amount_minor, fee_minor, posted_at)
     VALUES ($1, 'posted', 'collection', $2, $3, $4, 'LRD', 100, 0, now())`,
    [transferId, `TXN-${randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase()}`, userId, partnerId],
  );
}

describe('ledger rules enforced by the database', () => {
  it('when SQL sets a wallet balance directly, then it is refused: balances change only through entries', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 500n } });
    const accountId = await walletAccountId(user.phone, 'LRD');
    await expect(harness.sql.query('UPDATE ledger_accounts SET balance_minor = -1 WHERE account_id = $1', [accountId])).rejects.toThrow(
      'changes only through ledger entries',
    );
    await expect(harness.sql.query('UPDATE ledger_accounts SET balance_minor = 1000000 WHERE account_id = $1', [accountId])).rejects.toThrow(
      'changes only through ledger entries',
    );
    expect(await balanceOfWallet(harness, user.phone, 'LRD')).toBe(500n);
  });

  it('when even the triggers are bypassed, then the CHECK constraint still refuses a negative wallet balance', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 500n } });
    const accountId = await walletAccountId(user.phone, 'LRD');
    const attempt = inTransaction(async (client) => {
      // Replica mode skips ordinary triggers (superuser only), but never CHECK constraints.
      await client.query(`SET LOCAL session_replication_role = replica`);
      await client.query('UPDATE ledger_accounts SET balance_minor = -1 WHERE account_id = $1', [accountId]);
    });
    await expect(attempt).rejects.toMatchObject({ code: '23514', constraint: 'ledger_accounts_not_negative' });
  });

  it('when entries would overdraw a wallet, then the insert fails and nothing moves', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 500n } });
    const partnerId = await createTestPartner(harness, { LRD: 1n });
    const transferId = randomUUID();
    const attempt = inTransaction(async (client) => {
      await insertPostedTransfer(client, transferId, user.userId, partnerId);
      await client.query('INSERT INTO entries (transfer_id, account_id, currency, amount_minor) VALUES ($1, $2, $3, -501), ($1, $4, $3, 501)', [
        transferId,
        await walletAccountId(user.phone, 'LRD'),
        'LRD',
        await partnerAccountId(partnerId, 'LRD'),
      ]);
    });
    await expect(attempt).rejects.toMatchObject({ code: '23514', constraint: 'ledger_accounts_not_negative' });
    expect(await balanceOfWallet(harness, user.phone, 'LRD')).toBe(500n);
  });

  it('when a posting’s entries do not sum to zero, then the commit fails and no balance changes', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 500n } });
    const partnerId = await createTestPartner(harness, { LRD: 1n });
    const transferId = randomUUID();
    const attempt = inTransaction(async (client) => {
      await insertPostedTransfer(client, transferId, user.userId, partnerId);
      await client.query('INSERT INTO entries (transfer_id, account_id, currency, amount_minor) VALUES ($1, $2, $3, -100), ($1, $4, $3, 90)', [
        transferId,
        await walletAccountId(user.phone, 'LRD'),
        'LRD',
        await partnerAccountId(partnerId, 'LRD'),
      ]);
    });
    await expect(attempt).rejects.toThrow('does not sum to zero');
    expect(await balanceOfWallet(harness, user.phone, 'LRD')).toBe(500n);
    expect((await harness.sql.query('SELECT 1 FROM transfers WHERE transfer_id = $1', [transferId])).rowCount).toBe(0);
  });

  it('when the zero-sum check is asked to run immediately, then it still runs and still refuses', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 500n } });
    const partnerId = await createTestPartner(harness, { LRD: 1n });
    const transferId = randomUUID();
    const attempt = inTransaction(async (client) => {
      await insertPostedTransfer(client, transferId, user.userId, partnerId);
      await client.query('SET CONSTRAINTS entries_balanced_per_posting IMMEDIATE');
      await client.query('INSERT INTO entries (transfer_id, account_id, currency, amount_minor) VALUES ($1, $2, $3, -100)', [
        transferId,
        await walletAccountId(user.phone, 'LRD'),
        'LRD',
      ]);
    });
    await expect(attempt).rejects.toThrow('does not sum to zero');
  });

  it('when a transfer is marked posted without entries, then the commit fails', async () => {
    const user = await createTestUser(harness);
    const partnerId = await createTestPartner(harness, { LRD: 1n });
    await expect(inTransaction((client) => insertPostedTransfer(client, randomUUID(), user.userId, partnerId))).rejects.toThrow('has no entries');
  });

  it('when entries are written for a cancelled transfer id, then the commit fails', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 500n } });
    const partnerId = await createTestPartner(harness, { LRD: 1n });
    const transferId = randomUUID();
    await postJson(`${harness.baseUrl}/internal/transfers/${transferId}/cancel`, {});
    const attempt = inTransaction(async (client) => {
      await client.query('INSERT INTO entries (transfer_id, account_id, currency, amount_minor) VALUES ($1, $2, $3, -100), ($1, $4, $3, 100)', [
        transferId,
        await walletAccountId(user.phone, 'LRD'),
        'LRD',
        await partnerAccountId(partnerId, 'LRD'),
      ]);
    });
    await expect(attempt).rejects.toThrow('not posted');
  });

  it('when an entry is in another currency than its account, then the foreign key refuses it', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 500n } });
    const partnerId = await createTestPartner(harness, { LRD: 1n });
    const transferId = randomUUID();
    const attempt = inTransaction(async (client) => {
      await insertPostedTransfer(client, transferId, user.userId, partnerId);
      await client.query(`INSERT INTO entries (transfer_id, account_id, currency, amount_minor) VALUES ($1, $2, 'USD', -100)`, [
        transferId,
        await walletAccountId(user.phone, 'LRD'),
      ]);
    });
    await expect(attempt).rejects.toMatchObject({ code: '23503' });
  });

  it('when SQL edits or deletes ledger history, then it is refused', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 500n } });
    const partnerId = await createTestPartner(harness);
    const posted = await postJson(
      `${harness.baseUrl}/internal/transfers`,
      transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'LRD', amountMinor: '100' }),
    );
    const transferId: string = posted.body.transferId;
    await expect(harness.sql.query('UPDATE entries SET amount_minor = amount_minor * 2 WHERE transfer_id = $1', [transferId])).rejects.toThrow('append-only');
    await expect(harness.sql.query('DELETE FROM entries WHERE transfer_id = $1', [transferId])).rejects.toThrow('append-only');
    await expect(harness.sql.query(`UPDATE transfers SET state = 'cancelled' WHERE transfer_id = $1`, [transferId])).rejects.toThrow('append-only');
    await expect(harness.sql.query('DELETE FROM transfers WHERE transfer_id = $1', [transferId])).rejects.toThrow('append-only');
  });

  it('when an account is created with money in it, then it is refused', async () => {
    await expect(
      harness.sql.query(`INSERT INTO ledger_accounts (kind, currency, partner_id, balance_minor) VALUES ('partner', 'USD', $1, 100)`, [randomUUID()]),
    ).rejects.toThrow('starts at zero');
  });

  it('when SQL claims an already cancelled transfer id again, then the primary key refuses the second claim', async () => {
    const transferId = randomUUID();
    await postJson(`${harness.baseUrl}/internal/transfers/${transferId}/cancel`, {});
    await expect(
      harness.sql.query(`INSERT INTO transfers (transfer_id, state, cancelled_at) VALUES ($1, 'cancelled', now())`, [transferId]),
    ).rejects.toMatchObject({ code: '23505' });
  });
});

describe('GET /internal/ledger/invariants', () => {
  it('when the ledger is sound, then ok is true with totals per currency that sum to zero', async () => {
    const answer = await getJson(`${harness.baseUrl}/internal/ledger/invariants`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, problems: [] });
    expect(answer.body.currencies.map((totals: { currency: string }) => totals.currency)).toEqual(['LRD', 'USD']);
    for (const totals of answer.body.currencies) {
      expect(totals).toMatchObject({ balancesSumMinor: '0', entriesSumMinor: '0' });
    }
  });

  it('when a balance is corrupted behind the triggers’ back, then the check names the account, and passes again once repaired', async () => {
    const user = await createTestUser(harness, { balances: { USD: 700n } });
    const accountId = await walletAccountId(user.phone, 'USD');
    const setBehindTheTriggers = (minor: bigint): Promise<void> =>
      inTransaction(async (client) => {
        await client.query(`SET LOCAL session_replication_role = replica`);
        await client.query('UPDATE ledger_accounts SET balance_minor = $2 WHERE account_id = $1', [accountId, minor.toString()]);
      });

    await setBehindTheTriggers(900n);
    const broken = await getJson(`${harness.baseUrl}/internal/ledger/invariants`);
    await setBehindTheTriggers(700n);

    expect(broken.body.ok).toBe(false);
    expect(broken.body.problems).toEqual(
      expect.arrayContaining([
        { invariant: 'balance_equals_entries', message: expect.stringContaining(`account ${accountId} (USD) stores 900`) },
        { invariant: 'currency_sums_to_zero', message: 'balances in USD sum to 200, not zero' },
      ]),
    );
    expect((await getJson(`${harness.baseUrl}/internal/ledger/invariants`)).body.ok).toBe(true);
  });
});
