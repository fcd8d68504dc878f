import { randomUUID } from 'node:crypto';
import type { PoolClient } from '@pwa/db';
import {
  balanceOfPartner,
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

/** All legs of a posting in one INSERT statement, as the service writes them. */
async function insertLegs(client: PoolClient, transferId: string, legs: [accountId: string, amountMinor: bigint][]): Promise<void> {
  await client.query(
    `INSERT INTO entries (transfer_id, account_id, currency, amount_minor)
     SELECT $1, leg.account_id, a.currency, leg.amount_minor
       FROM unnest($2::bigint[], $3::bigint[]) WITH ORDINALITY AS leg (account_id, amount_minor, position)
       JOIN ledger_accounts a ON a.account_id = leg.account_id
      ORDER BY leg.position`,
    [transferId, legs.map(([accountId]) => accountId), legs.map(([, amountMinor]) => amountMinor.toString())],
  );
}

async function balanceOfAccount(accountId: string): Promise<bigint> {
  const result = await harness.sql.query<{ balance_minor: string }>('SELECT balance_minor FROM ledger_accounts WHERE account_id = $1', [accountId]);
  return BigInt(result.rows[0]?.balance_minor ?? 'NaN');
}

/** Stored balance minus the sum of the account's entries: zero when rule 1 holds. */
async function driftOfAccount(accountId: string): Promise<bigint> {
  const result = await harness.sql.query<{ drift: string }>(
    'SELECT a.balance_minor - coalesce((SELECT sum(e.amount_minor) FROM entries e WHERE e.account_id = a.account_id), 0) AS drift FROM ledger_accounts a WHERE a.account_id = $1',
    [accountId],
  );
  return BigInt(result.rows[0]?.drift ?? 'NaN');
}

async function feeRevenueAccountId(currency: string): Promise<string> {
  const result = await harness.sql.query<{ account_id: string }>(`SELECT account_id FROM ledger_accounts WHERE kind = 'fee_revenue' AND currency = $1`, [currency]);
  return result.rows[0]?.account_id ?? '';
}

/** Runs work in a transaction that is rolled back; the error of the statement that failed, if any, is returned. */
async function failureOf(work: (client: PoolClient) => Promise<void>): Promise<unknown> {
  const client = await harness.sql.connect();
  try {
    await client.query('BEGIN');
    await work(client);
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
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
    // From a DO block too: the trigger depth of a client's statement is 0 however it is sent.
    await expect(
      harness.sql.query(`DO $$ BEGIN UPDATE ledger_accounts SET balance_minor = balance_minor + 1 WHERE account_id = ${Number(accountId)}; END $$`),
    ).rejects.toMatchObject({ code: '23514', message: `balance of account ${accountId} changes only through ledger entries` });
    expect(await balanceOfWallet(harness, user.phone, 'LRD')).toBe(500n);
    // An UPDATE that leaves the balance as it is passes (the guard's WHEN is about the balance only).
    await expect(harness.sql.query('UPDATE ledger_accounts SET balance_minor = balance_minor WHERE account_id = $1', [accountId])).resolves.toMatchObject({
      rowCount: 1,
    });
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
    expect(await balanceOfPartner(harness, partnerId, 'LRD')).toBe(1n);
  });

  it('when the user leg of a 3-leg posting would overdraw, then its INSERT statement fails on the CHECK and nothing moves', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 500n } });
    const partnerId = await createTestPartner(harness, { LRD: 1n });
    const [wallet, partner, fee] = [await walletAccountId(user.phone, 'LRD'), await partnerAccountId(partnerId, 'LRD'), await feeRevenueAccountId('LRD')];
    const feeBefore = await balanceOfAccount(fee);
    const transferId = randomUUID();
    const failure = await failureOf(async (client) => {
      await insertPostedTransfer(client, transferId, user.userId, partnerId);
      await insertLegs(client, transferId, [
        [wallet, -501n],
        [partner, 491n],
        [fee, 10n],
      ]);
    });
    expect(failure).toMatchObject({ code: '23514', constraint: 'ledger_accounts_not_negative' });
    expect([await balanceOfAccount(wallet), await balanceOfAccount(partner), await balanceOfAccount(fee)]).toEqual([500n, 1n, feeBefore]);
    expect((await harness.sql.query('SELECT 1 FROM transfers WHERE transfer_id = $1', [transferId])).rowCount).toBe(0);
  });

  it('when a 3-leg posting is inserted in one statement, then each balance moves by exactly its legs and equals the sum of its entries', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 500n } });
    const partnerId = await createTestPartner(harness, { LRD: 1n });
    const [wallet, partner, fee] = [await walletAccountId(user.phone, 'LRD'), await partnerAccountId(partnerId, 'LRD'), await feeRevenueAccountId('LRD')];
    const feeBefore = await balanceOfAccount(fee);
    const transferId = randomUUID();
    await inTransaction(async (client) => {
      await insertPostedTransfer(client, transferId, user.userId, partnerId);
      // The partner's leg first and the wallet's last: the lock order comes from the trigger, not the legs.
      await insertLegs(client, transferId, [
        [partner, 100n],
        [fee, 10n],
        [wallet, -110n],
      ]);
    });
    expect([await balanceOfAccount(wallet), await balanceOfAccount(partner), await balanceOfAccount(fee)]).toEqual([390n, 101n, feeBefore + 10n]);
    for (const account of [wallet, partner, fee]) expect(await driftOfAccount(account)).toBe(0n);
  });

  it('when one statement has several legs on the same account, then the account moves by their sum', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 500n } });
    const partnerId = await createTestPartner(harness, { LRD: 1n });
    const [wallet, partner] = [await walletAccountId(user.phone, 'LRD'), await partnerAccountId(partnerId, 'LRD')];
    const transferId = randomUUID();
    await inTransaction(async (client) => {
      await insertPostedTransfer(client, transferId, user.userId, partnerId);
      await insertLegs(client, transferId, [
        [wallet, -60n],
        [partner, 100n],
        [wallet, -40n],
      ]);
    });
    expect([await balanceOfAccount(wallet), await balanceOfAccount(partner)]).toEqual([400n, 101n]);
    for (const account of [wallet, partner]) expect(await driftOfAccount(account)).toBe(0n);
  });

  it('when the session’s search_path does not name the wallet schema, then the triggers still find the wallet’s tables', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 500n } });
    const partnerId = await createTestPartner(harness, { LRD: 1n });
    const [wallet, partner] = [await walletAccountId(user.phone, 'LRD'), await partnerAccountId(partnerId, 'LRD')];
    const transferId = randomUUID();
    await inTransaction(async (client) => {
      await client.query('SET LOCAL search_path = public');
      await client.query(
        `INSERT INTO wallet.transfers (transfer_id, state, kind, transaction_id, user_id, partner_id, currency, amount_minor, fee_minor, posted_at)
         VALUES ($1, 'posted', 'collection', $2, $3, $4, 'LRD', 100, 0, now())`,
        [transferId, `TXN-${randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase()}`, user.userId, partnerId],
      );
      await client.query(`INSERT INTO wallet.entries (transfer_id, account_id, currency, amount_minor) VALUES ($1, $2, 'LRD', -100), ($1, $3, 'LRD', 100)`, [
        transferId,
        wallet,
        partner,
      ]);
    });
    expect([await balanceOfAccount(wallet), await balanceOfAccount(partner)]).toEqual([400n, 101n]);
  });

  it('when a posting’s entries do not sum to zero, then the inserting statement fails (not only the commit) and no balance changes', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 500n } });
    const partnerId = await createTestPartner(harness, { LRD: 1n });
    const transferId = randomUUID();
    const [wallet, partner] = [await walletAccountId(user.phone, 'LRD'), await partnerAccountId(partnerId, 'LRD')];
    let inserted = false;
    const failure = await failureOf(async (client) => {
      await insertPostedTransfer(client, transferId, user.userId, partnerId);
      await client.query('INSERT INTO entries (transfer_id, account_id, currency, amount_minor) VALUES ($1, $2, $3, -100), ($1, $4, $3, 90)', [
        transferId,
        wallet,
        'LRD',
        partner,
      ]);
      inserted = true;
    });
    expect(inserted).toBe(false);
    expect(failure).toMatchObject({ code: '23514', message: `posting ${transferId} does not sum to zero per currency` });
    expect(await balanceOfWallet(harness, user.phone, 'LRD')).toBe(500n);
    expect(await balanceOfPartner(harness, partnerId, 'LRD')).toBe(1n);
    expect((await harness.sql.query('SELECT 1 FROM transfers WHERE transfer_id = $1', [transferId])).rowCount).toBe(0);
  });

  it('when all constraints are deferred, then a one-legged posting is still refused by its own INSERT statement', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 500n } });
    const partnerId = await createTestPartner(harness, { LRD: 1n });
    const transferId = randomUUID();
    const wallet = await walletAccountId(user.phone, 'LRD');
    let inserted = false;
    const failure = await failureOf(async (client) => {
      await client.query('SET CONSTRAINTS ALL DEFERRED');
      await insertPostedTransfer(client, transferId, user.userId, partnerId);
      await insertLegs(client, transferId, [[wallet, -100n]]);
      inserted = true;
    });
    expect(inserted).toBe(false);
    expect(failure).toMatchObject({ code: '23514', message: expect.stringContaining('does not sum to zero') });
    expect(await balanceOfWallet(harness, user.phone, 'LRD')).toBe(500n);
  });

  it('when entries added later to a posted transfer make it unbalanced, then they are refused and nothing moves', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 500n } });
    const partnerId = await createTestPartner(harness);
    const posted = await postJson(
      `${harness.baseUrl}/internal/transfers`,
      transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'LRD', amountMinor: '100' }),
    );
    expect(posted.status).toBe(200);
    const transferId: string = posted.body.transferId;
    const partner = await partnerAccountId(partnerId, 'LRD');
    const failure = await failureOf((client) => insertLegs(client, transferId, [[partner, 5n]]));
    expect(failure).toMatchObject({ code: '23514', message: `posting ${transferId} does not sum to zero per currency` });
    expect(await balanceOfPartner(harness, partnerId, 'LRD')).toBe(100n);
    expect(await balanceOfWallet(harness, user.phone, 'LRD')).toBe(400n);
    expect((await harness.sql.query('SELECT 1 FROM entries WHERE transfer_id = $1', [transferId])).rowCount).toBe(2);
  });

  it('when one statement writes a balanced posting and an unbalanced one, then the whole statement is refused', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 500n } });
    const partnerId = await createTestPartner(harness, { LRD: 1n });
    const [wallet, partner] = [await walletAccountId(user.phone, 'LRD'), await partnerAccountId(partnerId, 'LRD')];
    const [balanced, unbalanced] = [randomUUID(), randomUUID()];
    const failure = await failureOf(async (client) => {
      await insertPostedTransfer(client, balanced, user.userId, partnerId);
      await insertPostedTransfer(client, unbalanced, user.userId, partnerId);
      await client.query(
        `INSERT INTO entries (transfer_id, account_id, currency, amount_minor)
         VALUES ($1, $3, 'LRD', -100), ($1, $4, 'LRD', 100), ($2, $3, 'LRD', -100), ($2, $4, 'LRD', 99)`,
        [balanced, unbalanced, wallet, partner],
      );
    });
    expect(failure).toMatchObject({ code: '23514', message: `posting ${unbalanced} does not sum to zero per currency` });
    expect([await balanceOfAccount(wallet), await balanceOfAccount(partner)]).toEqual([500n, 1n]);
  });

  it('when a transfer is marked posted without entries, then the commit fails', async () => {
    const user = await createTestUser(harness);
    const partnerId = await createTestPartner(harness, { LRD: 1n });
    await expect(inTransaction((client) => insertPostedTransfer(client, randomUUID(), user.userId, partnerId))).rejects.toThrow('has no entries');
  });

  it('when balanced entries are written for a cancelled transfer id, then their INSERT statement fails and nothing moves', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 500n } });
    const partnerId = await createTestPartner(harness, { LRD: 1n });
    const transferId = randomUUID();
    await postJson(`${harness.baseUrl}/internal/transfers/${transferId}/cancel`, {});
    const failure = await failureOf(async (client) => {
      await client.query('INSERT INTO entries (transfer_id, account_id, currency, amount_minor) VALUES ($1, $2, $3, -100), ($1, $4, $3, 100)', [
        transferId,
        await walletAccountId(user.phone, 'LRD'),
        'LRD',
        await partnerAccountId(partnerId, 'LRD'),
      ]);
    });
    expect(failure).toMatchObject({ code: '23514', message: `entries for transfer ${transferId} which is not posted` });
    expect(await balanceOfWallet(harness, user.phone, 'LRD')).toBe(500n);
    expect(await balanceOfPartner(harness, partnerId, 'LRD')).toBe(1n);
    expect((await harness.sql.query('SELECT 1 FROM entries WHERE transfer_id = $1', [transferId])).rowCount).toBe(0);
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
    ).rejects.toMatchObject({ code: '23514', message: 'a ledger account starts at zero; money arrives only through entries' });
    await expect(
      harness.sql.query(`INSERT INTO ledger_accounts (kind, currency, partner_id, balance_minor) VALUES ('partner', 'USD', $1, -100)`, [randomUUID()]),
    ).rejects.toThrow('starts at zero');
    const opened = await harness.sql.query<{ balance_minor: string }>(
      `INSERT INTO ledger_accounts (kind, currency, partner_id) VALUES ('partner', 'USD', $1) RETURNING balance_minor`,
      [randomUUID()],
    );
    expect(opened.rows[0]?.balance_minor).toBe('0');
  });

  it('when SQL claims an already cancelled transfer id again, then the primary key refuses the second claim', async () => {
    const transferId = randomUUID();
    await postJson(`${harness.baseUrl}/internal/transfers/${transferId}/cancel`, {});
    await expect(
      harness.sql.query(`INSERT INTO transfers (transfer_id, state, cancelled_at) VALUES ($1, 'cancelled', now())`, [transferId]),
    ).rejects.toMatchObject({ code: '23505' });
  });
});

describe('ledger rules under concurrency', () => {
  async function backendPid(client: PoolClient): Promise<number> {
    const result = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return result.rows[0]?.pid ?? 0;
  }

  async function waitUntilWaitingForALock(pid: number): Promise<void> {
    for (let attempt = 0; attempt < 1_000; attempt += 1) {
      const result = await harness.sql.query<{ wait_event_type: string | null }>('SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1', [pid]);
      if (result.rows[0]?.wait_event_type === 'Lock') return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`backend ${pid} never waited for a lock`);
  }

  it('when two postings touch the same accounts with their legs in opposite orders, then both complete without a deadlock', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 500n } });
    const partnerId = await createTestPartner(harness, { LRD: 1_000n });
    const [wallet, partner] = [await walletAccountId(user.phone, 'LRD'), await partnerAccountId(partnerId, 'LRD')];
    const [low, high] = BigInt(wallet) < BigInt(partner) ? [wallet, partner] : [partner, wallet];
    // Posting A moves 10 from the wallet to the partner, posting B 10 back; A lists the lower
    // account first, B the higher one.
    const amountOf = (posting: 'A' | 'B', account: string): bigint => ((account === wallet) === (posting === 'A') ? -10n : 10n);
    const [blocker, clientA, clientB] = [await harness.sql.connect(), await harness.sql.connect(), await harness.sql.connect()];
    const [transferA, transferB] = [randomUUID(), randomUUID()];
    const [pidA, pidB] = [await backendPid(clientA), await backendPid(clientB)];
    try {
      // The blocker holds the lower account (with the lock an UPDATE takes, which the entries'
      // foreign key checks do not wait for), so both postings queue behind it: A first, then B.
      // With one trigger per leg, B would hold the higher account while waiting for the lower one,
      // and A, granted the lower one, would then wait for the higher one: a deadlock.
      await blocker.query('BEGIN');
      await blocker.query('SELECT 1 FROM ledger_accounts WHERE account_id = $1 FOR NO KEY UPDATE', [low]);
      for (const [client, transferId] of [
        [clientA, transferA],
        [clientB, transferB],
      ] as const) {
        await client.query('BEGIN');
        await insertPostedTransfer(client, transferId, user.userId, partnerId);
      }
      const postingA = insertLegs(clientA, transferA, [
        [low, amountOf('A', low)],
        [high, amountOf('A', high)],
      ]).then(() => clientA.query('COMMIT'));
      await waitUntilWaitingForALock(pidA);
      const postingB = insertLegs(clientB, transferB, [
        [high, amountOf('B', high)],
        [low, amountOf('B', low)],
      ]).then(() => clientB.query('COMMIT'));
      await waitUntilWaitingForALock(pidB);
      await blocker.query('COMMIT');
      const outcomes = await Promise.allSettled([postingA, postingB]);
      expect(outcomes.map((outcome) => (outcome.status === 'rejected' ? String(outcome.reason) : outcome.status))).toEqual(['fulfilled', 'fulfilled']);
    } finally {
      for (const client of [blocker, clientA, clientB]) {
        await client.query('ROLLBACK').catch(() => undefined);
        client.release();
      }
    }
    expect([await balanceOfAccount(wallet), await balanceOfAccount(partner)]).toEqual([500n, 1_000n]);
    for (const account of [wallet, partner]) expect(await driftOfAccount(account)).toBe(0n);
    const entries = await harness.sql.query('SELECT 1 FROM entries WHERE transfer_id = ANY($1::uuid[])', [[transferA, transferB]]);
    expect(entries.rowCount).toBe(4);
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
