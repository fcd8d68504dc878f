import { setLimit } from '../../src/use-cases/manage-limits';
import { seriesValue } from '../../../../test/support/prometheus-text';
import {
  balanceOfPartner,
  balanceOfSystemAccount,
  balanceOfWallet,
  createTestPartner,
  createTestUser,
  expectLedgerInvariantsHold,
  postJson,
  postingCountOf,
  startWalletHarness,
  transferBody,
  type HttpAnswer,
  type WalletHarness,
} from './wallet-harness';

/*
 * Group commit of single disbursement postings (decision 0056) through POST /internal/transfers and
 * real Postgres: many postings of one partner at once are posted in groups (the metric says groups
 * larger than one formed), each caller answered with its own outcome; balances to the cent; the
 * partner's balance running out in the middle of a group; the same transfer id raced; and a wallet
 * with group commit off posting the same way, one transaction each.
 */

let harness: WalletHarness;

/** Gold USD disbursements of this file: 500.00 per transfer, counts and totals high enough not to be the subject. */
async function knownLimits(base: WalletHarness): Promise<void> {
  await setLimit(
    base.pool,
    { tier: 'Gold', transactionType: 'disbursement', currency: 'USD' },
    { perTransactionMaxMinor: 50_000n, dailyMaxMinor: 10_000_000n, weeklyMaxMinor: 10_000_000n, monthlyMaxMinor: 10_000_000n, yearlyMaxMinor: 100_000_000n, perHourCountMax: 10_000, perDayCountMax: 10_000 },
  );
}

beforeAll(async () => {
  harness = await startWalletHarness({ WALLET_GROUP_COMMIT_MAX_ITEMS: '20' });
  await knownLimits(harness);
});

afterAll(async () => {
  await expectLedgerInvariantsHold(harness);
  await harness.stop();
});

const post = (base: WalletHarness, body: unknown): Promise<HttpAnswer> => postJson(`${base.baseUrl}/internal/transfers`, body);

async function groupsLargerThanOne(base: WalletHarness): Promise<number> {
  const text = await (await fetch(`${base.baseUrl}/metrics`)).text();
  const all = seriesValue(text, 'ledger_group_commit_size_count', {}) ?? 0;
  const ofOne = seriesValue(text, 'ledger_group_commit_size_bucket', { le: '1' }) ?? 0;
  return all - ofOne;
}

describe('group commit of single disbursement postings', () => {
  test('when 60 postings of one partner arrive at once, then they are posted in groups, each answered with its own transaction, and the money moves to the cent', async () => {
    const partnerId = await createTestPartner(harness, { USD: 1_000_000n });
    const users = await Promise.all(Array.from({ length: 6 }, () => createTestUser(harness, { tier: 'Gold' })));
    const feesBefore = await balanceOfSystemAccount(harness, 'fee_revenue', 'USD');
    const groupsBefore = await groupsLargerThanOne(harness);
    const bodies = Array.from({ length: 60 }, (_, index) =>
      transferBody({ type: 'disbursement', partnerId, phone: users[index % users.length]!.phone, currency: 'USD', amountMinor: String(100 + index), feeMinor: '7' }),
    );

    const answers = await Promise.all(bodies.map((body) => post(harness, body)));

    expect(answers.map((answer) => answer.status)).toEqual(bodies.map(() => 200));
    expect(new Set(answers.map((answer) => answer.body.transactionId)).size).toBe(60);
    expect(answers.map((answer) => answer.body.transferId)).toEqual(bodies.map((body) => body.transferId));
    expect(await groupsLargerThanOne(harness)).toBeGreaterThan(groupsBefore);
    const amounts = bodies.reduce((sum, body) => sum + BigInt(body.amountMinor), 0n);
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(1_000_000n - amounts - 60n * 7n);
    expect((await balanceOfSystemAccount(harness, 'fee_revenue', 'USD')) - feesBefore).toBe(60n * 7n);
    const received = await Promise.all(users.map((user) => balanceOfWallet(harness, user.phone, 'USD')));
    expect(received.reduce((sum, balance) => sum + balance, 0n)).toBe(amounts);
    for (const body of bodies) expect(await postingCountOf(harness, body.transferId)).toEqual({ transfers: 1, entries: 3 });
    await expectLedgerInvariantsHold(harness);
  });

  test('when the partner balance covers only some of the postings arriving together, then exactly those are posted and the others refused PKC_4002, never below zero', async () => {
    const partnerId = await createTestPartner(harness, { USD: 10_000n });
    const user = await createTestUser(harness, { tier: 'Gold' });
    const bodies = Array.from({ length: 30 }, () => transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'USD', amountMinor: '900', feeMinor: '100' }));

    const answers = await Promise.all(bodies.map((body) => post(harness, body)));

    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
    expect(answers.filter((answer) => answer.status !== 200).map((answer) => [answer.status, answer.body.code])).toEqual(Array.from({ length: 20 }, () => [400, 'PKC_4002']));
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(0n);
    expect(await balanceOfWallet(harness, user.phone, 'USD')).toBe(9_000n);
  });

  test('when the same transfer id is posted ten times at once among other postings, then it is posted once and every call answers the same transaction', async () => {
    const partnerId = await createTestPartner(harness, { USD: 100_000n });
    const user = await createTestUser(harness, { tier: 'Gold' });
    const repeated = transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'USD', amountMinor: '1000' });
    const others = Array.from({ length: 10 }, () => transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'USD', amountMinor: '100' }));
    const bodies = [...others.slice(0, 5), ...Array.from({ length: 10 }, () => repeated), ...others.slice(5)];

    const answers = await Promise.all(bodies.map((body) => post(harness, body)));

    expect(answers.map((answer) => answer.status)).toEqual(bodies.map(() => 200));
    const repeatedAnswers = answers.filter((_, index) => bodies[index] === repeated);
    expect(new Set(repeatedAnswers.map((answer) => answer.body.transactionId)).size).toBe(1);
    expect(await postingCountOf(harness, repeated.transferId)).toEqual({ transfers: 1, entries: 2 });
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(100_000n - 1_000n - 10n * 100n);
  });

  test('when a posting of a group is refused for its own reasons, then only it fails and the posting to an unknown phone gets PKC_3001', async () => {
    const partnerId = await createTestPartner(harness, { USD: 100_000n });
    const user = await createTestUser(harness, { tier: 'Gold' });
    const bodies = [
      ...Array.from({ length: 5 }, () => transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'USD', amountMinor: '100' })),
      transferBody({ type: 'disbursement', partnerId, phone: '+231779999999', currency: 'USD', amountMinor: '100' }),
      transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'USD', amountMinor: '60000' }),
      ...Array.from({ length: 5 }, () => transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'USD', amountMinor: '100' })),
    ];

    const answers = await Promise.all(bodies.map((body) => post(harness, body)));

    expect(answers.map((answer) => (answer.status === 200 ? 'posted' : answer.body.code))).toEqual([
      'posted', 'posted', 'posted', 'posted', 'posted', 'PKC_3001', 'PKC_4003', 'posted', 'posted', 'posted', 'posted', 'posted',
    ]);
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(100_000n - 10n * 100n);
  });

  test('when group commit is off, then the same postings are each their own transaction with the same outcomes', async () => {
    const single = await startWalletHarness({ WALLET_GROUP_COMMIT_MAX_ITEMS: '0' });
    try {
      await knownLimits(single);
      const partnerId = await createTestPartner(single, { USD: 10_000n });
      const user = await createTestUser(single, { tier: 'Gold' });
      const bodies = Array.from({ length: 12 }, () => transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'USD', amountMinor: '900', feeMinor: '100' }));
      const answers = await Promise.all(bodies.map((body) => post(single, body)));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
      expect(await balanceOfPartner(single, partnerId, 'USD')).toBe(0n);
      expect(await groupsLargerThanOne(single)).toBe(0);
      await expectLedgerInvariantsHold(single);
    } finally {
      await single.stop();
    }
  });
});
