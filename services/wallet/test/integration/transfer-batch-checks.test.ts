import { randomUUID } from 'node:crypto';
import {
  walletPaths,
  walletTransferBatchAnswerSchema,
  walletTransferBatchBody,
  walletTransferBatchCheckAnswerSchema,
  walletTransferBatchCheckBody,
  walletTransferBatchCheckItemsMax,
} from '@pwa/contracts';
import type { Currency } from '@pwa/money';
import { setLimit } from '../../src/use-cases/manage-limits';
import { changeUser } from '../../src/use-cases/manage-users';
import { balanceOfPartner, balanceOfWallet, createTestPartner, createTestUser, expectLedgerInvariantsHold, postJson, startWalletHarness, type WalletHarness } from './wallet-harness';

/*
 * POST /internal/transfer-batches/checks (issue 20, decision 0055) through the real route and
 * Postgres: per-item results in the request's order, decided as the posting batch decides them
 * but for the partner's balance, which the answer carries instead; nothing written, no row locked.
 */

let harness: WalletHarness;

beforeAll(async () => {
  harness = await startWalletHarness();
  // The limits of the posting batch's tests: 500.00 per transfer, 800.00 a day, counts high enough not to matter.
  await setLimit(
    harness.pool,
    { tier: 'Gold', transactionType: 'disbursement', currency: 'USD' },
    { perTransactionMaxMinor: 50_000n, dailyMaxMinor: 80_000n, weeklyMaxMinor: 10_000_000n, monthlyMaxMinor: 10_000_000n, yearlyMaxMinor: 100_000_000n, perHourCountMax: 10_000, perDayCountMax: 10_000 },
  );
});

afterAll(async () => {
  await expectLedgerInvariantsHold(harness);
  await harness.stop();
});

interface CheckItem {
  phone: string;
  amountMinor: bigint;
  feeMinor: bigint;
}

type Answer = ReturnType<typeof walletTransferBatchCheckAnswerSchema.parse>;

const item = (phone: string, amountMinor: bigint, feeMinor = 0n): CheckItem => ({ phone, amountMinor, feeMinor });

async function checkBatch(partnerId: string, items: readonly CheckItem[], currency: Currency = 'USD'): Promise<Answer> {
  const answer = await postJson(`${harness.baseUrl}${walletPaths.transferBatchChecks}`, walletTransferBatchCheckBody({ partnerId, currency, type: 'disbursement', items }));
  expect(answer.status).toBe(200);
  return walletTransferBatchCheckAnswerSchema.parse(answer.body);
}

/** Each result as the recipient's name when passed, or its code when refused. */
const outcomesOf = (answer: Answer): string[] => answer.results.map((result) => (result.outcome === 'refused' ? result.code : result.recipientName));

/** Everything a posting or a consumed limit would change: rows of the ledger's tables and every balance. */
async function ledgerState(): Promise<unknown> {
  const result = await harness.sql.query(
    `SELECT (SELECT count(*) FROM transfers)::int AS transfers,
            (SELECT count(*) FROM entries)::int AS entries,
            (SELECT count(*) FROM partner_statement_lines)::int AS statement_lines,
            (SELECT count(*) FROM outbox)::int AS outbox,
            (SELECT count(*) FROM ledger_accounts)::int AS accounts,
            (SELECT coalesce(string_agg(account_id::text || ':' || balance_minor::text, ',' ORDER BY account_id), '') FROM ledger_accounts) AS balances`,
  );
  return result.rows[0];
}

describe('POST /internal/transfer-batches/checks', () => {
  it('when a check mixes valid and failing items, then each item has its own result in the request order, the names of the passing recipients and the first failing rule of the others, and nothing is written', async () => {
    const partnerId = await createTestPartner(harness, { USD: 1_000_000n });
    const [valid, frozen, pending, suspended, nearLimit] = await Promise.all([
      createTestUser(harness, { name: 'Comfort Gold' }),
      createTestUser(harness),
      createTestUser(harness, { kycStatus: 'pending' }),
      createTestUser(harness, { accountStatus: 'suspended' }),
      createTestUser(harness, { name: 'Near Limit' }),
    ]);
    await changeUser(harness.pool, frozen.phone, { freeze: ['USD'] });
    const before = await ledgerState();
    const localForm = `0${valid.phone.slice(4, 6)} ${valid.phone.slice(6)}`;

    const answer = await checkBatch(partnerId, [
      item(localForm, 10_000n, 100n),
      item('+231770999999', 1_000n, 10n),
      item(frozen.phone, 1_000n, 10n),
      item(pending.phone, 1_000n),
      item(suspended.phone, 1_000n),
      item(valid.phone, 60_000n, 10n),
      item(nearLimit.phone, 45_000n, 50n),
      // Alone it passes every limit; after the item above, the user's day would reach 850.00 > 800.00.
      item(nearLimit.phone, 40_000n, 50n),
      // Lands exactly on the daily limit (allowed).
      item(nearLimit.phone, 35_000n),
      item('0770 12', 1_000n),
      item('+12025550123', 1_000n),
    ]);

    expect(outcomesOf(answer)).toEqual(['Comfort Gold', 'PKC_3001', 'PKC_3004', 'PKC_3005', 'PKC_3002', 'PKC_4003', 'Near Limit', 'PKC_4004', 'Near Limit', 'PKC_2001', 'PKC_2001']);
    expect(answer.results[0]).toEqual({ outcome: 'passed', phone: valid.phone, recipientName: 'Comfort Gold' });
    expect(answer.partnerBalanceMinor).toBe(1_000_000n);
    expect(await ledgerState()).toEqual(before);
  });

  it('when the same items are checked and then posted as a batch with enough partner balance, then the check passes exactly the items the posting posts and refuses the others with the same codes', async () => {
    const partnerId = await createTestPartner(harness, { USD: 1_000_000n });
    const users = await Promise.all([createTestUser(harness), createTestUser(harness), createTestUser(harness, { kycStatus: 'rejected' })]);
    const items = [
      item(users[0]?.phone ?? '', 30_000n, 10n),
      item(users[0]?.phone ?? '', 30_000n, 10n),
      item(users[1]?.phone ?? '', 50_001n),
      item(users[0]?.phone ?? '', 30_000n, 10n),
      item(users[2]?.phone ?? '', 100n),
      item(users[1]?.phone ?? '', 50_000n),
      item('+231880000000', 100n),
    ];

    const checked = await checkBatch(partnerId, items);
    const posted = await postJson(
      `${harness.baseUrl}${walletPaths.transferBatches}`,
      walletTransferBatchBody({ partnerId, currency: 'USD', type: 'disbursement', items: items.map((checkItem) => ({ transferId: randomUUID(), ...checkItem })) }),
    );

    expect(posted.status).toBe(200);
    const postedOutcomes = walletTransferBatchAnswerSchema.parse(posted.body).results.map((result) => (result.outcome === 'refused' ? result.code : result.outcome));
    expect(checked.results.map((result) => (result.outcome === 'refused' ? result.code : 'posted'))).toEqual(postedOutcomes);
    expect(postedOutcomes).toEqual(['posted', 'posted', 'PKC_4003', 'PKC_4004', 'PKC_3005', 'posted', 'PKC_3001']);
  });

  it('when the items together exceed the partner balance, then no item is refused for it and the answer carries the balance; without an account in the currency the balance is 0', async () => {
    const partnerId = await createTestPartner(harness, { USD: 1_000n });
    const users = await Promise.all(Array.from({ length: 3 }, () => createTestUser(harness)));
    const items = users.map((user) => item(user.phone, 600n, 10n));

    const answer = await checkBatch(partnerId, items);
    const inLrd = await checkBatch(partnerId, items, 'LRD');

    expect(answer.partnerBalanceMinor).toBe(1_000n);
    expect(answer.results.map((result) => result.outcome)).toEqual(['passed', 'passed', 'passed']);
    expect(inLrd.partnerBalanceMinor).toBe(0n);
    expect(inLrd.results.map((result) => result.outcome)).toEqual(['passed', 'passed', 'passed']);
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(1_000n);
    expect(await Promise.all(users.map((user) => balanceOfWallet(harness, user.phone, 'USD')))).toEqual([0n, 0n, 0n]);
  });

  it('when a check passes a user up to the daily limit, then a posting after it still has the whole limit: a check consumes nothing', async () => {
    const partnerId = await createTestPartner(harness, { USD: 1_000_000n });
    const user = await createTestUser(harness, { name: 'Budget Kept' });
    const before = await ledgerState();

    const checked = await checkBatch(partnerId, [item(user.phone, 50_000n), item(user.phone, 30_000n)]);
    const again = await checkBatch(partnerId, [item(user.phone, 50_000n), item(user.phone, 30_000n)]);

    expect(outcomesOf(checked)).toEqual(['Budget Kept', 'Budget Kept']);
    expect(again).toEqual(checked);
    expect(await ledgerState()).toEqual(before);
    const posted = await postJson(
      `${harness.baseUrl}${walletPaths.transferBatches}`,
      walletTransferBatchBody({ partnerId, currency: 'USD', type: 'disbursement', items: [item(user.phone, 50_000n), item(user.phone, 30_000n)].map((checkItem) => ({ transferId: randomUUID(), ...checkItem })) }),
    );
    expect(walletTransferBatchAnswerSchema.parse(posted.body).results.map((result) => result.outcome)).toEqual(['posted', 'posted']);
  });

  it('when another transaction holds the rows a posting batch would lock (the users and the ledger accounts), then the check still answers at once: it takes no row lock', async () => {
    const partnerId = await createTestPartner(harness, { USD: 10_000n });
    const user = await createTestUser(harness, { name: 'Not Waiting' });
    const blocker = await harness.sql.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT 1 FROM users WHERE phone = $1 FOR UPDATE', [user.phone]);
      await blocker.query(`SELECT 1 FROM ledger_accounts WHERE (kind = 'partner' AND partner_id = $1) OR account_id IN (SELECT w.account_id FROM wallets w JOIN users u ON u.user_id = w.user_id WHERE u.phone = $2) FOR UPDATE`, [
        partnerId,
        user.phone,
      ]);
      const timeout = new Promise<'timed out'>((resolve) => setTimeout(() => resolve('timed out'), 5_000).unref());

      const answer = await Promise.race([checkBatch(partnerId, [item(user.phone, 1_000n)]), timeout]);

      expect(answer).not.toBe('timed out');
      expect(answer === 'timed out' ? [] : outcomesOf(answer)).toEqual(['Not Waiting']);
    } finally {
      await blocker.query('ROLLBACK');
      blocker.release();
    }
  });

  it('when a check carries 1,000 items with the longest phone texts the contract allows, then its body is within the 1 MB limit and every item is answered in order', async () => {
    const partnerId = await createTestPartner(harness, { USD: 100n });
    const users = await Promise.all(Array.from({ length: 20 }, (_, index) => createTestUser(harness, { name: `Recipient ${index} ${'é'.repeat(150)}` })));
    // 32 characters, the contract's longest phone: the +231 form with spaces between its digits.
    const longestForm = (phone: string): string => `${phone.slice(0, 4)}${' '.repeat(32 - phone.length)}${phone.slice(4)}`;
    const items = Array.from({ length: walletTransferBatchCheckItemsMax }, (_, index) => item(longestForm(users[index % users.length]?.phone ?? ''), 100n + BigInt(index), 10n));
    const body = walletTransferBatchCheckBody({ partnerId, currency: 'USD', type: 'disbursement', items });
    expect(items[0]?.phone).toHaveLength(32);
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThan(1024 * 1024);

    const answer = await checkBatch(partnerId, items);

    expect(answer.results).toHaveLength(walletTransferBatchCheckItemsMax);
    expect(answer.results.map((result) => (result.outcome === 'passed' ? result.phone : result.code))).toEqual(items.map((_, index) => users[index % users.length]?.phone));
    expect(answer.partnerBalanceMinor).toBe(100n);
  });

  it('when a body breaks the contract (1,001 items, no items, another type, an amount of zero), then it is 400 PKC_2008 and nothing is read or written', async () => {
    const partnerId = await createTestPartner(harness, { USD: 10_000n });
    const user = await createTestUser(harness);
    const valid = walletTransferBatchCheckBody({ partnerId, currency: 'USD', type: 'disbursement', items: [item(user.phone, 100n)] });
    const before = await ledgerState();
    const bodies: unknown[] = [
      walletTransferBatchCheckBody({ partnerId, currency: 'USD', type: 'disbursement', items: Array.from({ length: walletTransferBatchCheckItemsMax + 1 }, () => item(user.phone, 1n)) }),
      { ...valid, items: [] },
      { ...valid, type: 'collection' },
      { ...valid, items: [{ phone: user.phone, amountMinor: '0', feeMinor: '0' }] },
      { ...valid, partnerId: 'not-a-uuid' },
    ];
    for (const body of bodies) {
      const answer = await postJson(`${harness.baseUrl}${walletPaths.transferBatchChecks}`, body);
      expect([answer.status, answer.body.code]).toEqual([400, 'PKC_2008']);
    }
    expect(await ledgerState()).toEqual(before);
  });
});
