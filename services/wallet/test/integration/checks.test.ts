import { randomUUID } from 'node:crypto';
import { setLimit } from '../../src/use-cases/manage-limits';
import { changeUser } from '../../src/use-cases/manage-users';
import {
  createTestPartner,
  createTestUser,
  expectLedgerInvariantsHold,
  getJson,
  postJson,
  startWalletHarness,
  transferBody,
  type WalletHarness,
} from './wallet-harness';

let harness: WalletHarness;
let partnerId: string;

const usd = (major: number): bigint => BigInt(major) * 100n;

beforeAll(async () => {
  harness = await startWalletHarness();
  partnerId = await createTestPartner(harness, { LRD: usd(1_000_000), USD: usd(1_000_000) });
  // Small limits, one rule per window under test, so each code can be reached with today's postings alone.
  const big = { perTransactionMaxMinor: usd(100), dailyMaxMinor: usd(1_000), weeklyMaxMinor: usd(1_000), monthlyMaxMinor: usd(1_000), yearlyMaxMinor: usd(1_000), perHourCountMax: 10, perDayCountMax: 10 };
  await setLimit(harness.pool, { tier: 'Silver', transactionType: 'collection', currency: 'USD' }, { ...big, dailyMaxMinor: usd(150) });
  await setLimit(harness.pool, { tier: 'Silver', transactionType: 'collection', currency: 'LRD' }, { ...big, weeklyMaxMinor: usd(150) });
  await setLimit(harness.pool, { tier: 'Silver', transactionType: 'disbursement', currency: 'USD' }, { ...big, monthlyMaxMinor: usd(150) });
  await setLimit(harness.pool, { tier: 'Silver', transactionType: 'disbursement', currency: 'LRD' }, { ...big, yearlyMaxMinor: usd(150) });
  await setLimit(harness.pool, { tier: 'Basic', transactionType: 'collection', currency: 'USD' }, { ...big, perDayCountMax: 2, perHourCountMax: 5 });
  await setLimit(harness.pool, { tier: 'Basic', transactionType: 'collection', currency: 'LRD' }, { ...big, perDayCountMax: 10, perHourCountMax: 2 });
  // A provisioning gap: Basic has no disbursement rule in LRD, Platinum has no rules at all.
  await harness.sql.query(`DELETE FROM tier_limits WHERE (tier = 'Basic' AND transaction_type = 'disbursement' AND currency = 'LRD') OR tier = 'Platinum'`);
});

afterAll(async () => {
  await expectLedgerInvariantsHold(harness);
  await harness.stop();
});

type CheckFields = { type?: 'collection' | 'disbursement'; currency?: 'LRD' | 'USD'; amountMinor?: string; feeMinor?: string; partnerId?: string };

function check(phone: string, fields: CheckFields = {}): Promise<{ status: number; body: any }> {
  return postJson(`${harness.baseUrl}/internal/checks`, {
    type: 'collection',
    partnerId,
    phone,
    currency: 'USD',
    amountMinor: '1000',
    feeMinor: '0',
    ...fields,
  });
}

async function post(phone: string, fields: CheckFields): Promise<void> {
  const answer = await postJson(
    `${harness.baseUrl}/internal/transfers`,
    transferBody({ type: 'collection', partnerId, phone, currency: 'USD', amountMinor: '1000', ...fields }),
  );
  expect(answer.body).toMatchObject({ status: 'posted' });
}

async function expectRefusal(answer: Promise<{ status: number; body: any }>, httpStatus: number, code: string): Promise<void> {
  const { status, body } = await answer;
  expect({ status, code: body.code, success: body.success }).toEqual({ status: httpStatus, code, success: false });
  expect(typeof body.message).toBe('string');
}

describe('POST /internal/checks', () => {
  it('when everything passes, then the recipient and both balances come back, amounts as strings of minor units', async () => {
    const user = await createTestUser(harness, { name: 'Comfort Doe', balances: { USD: 5_000n } });
    const answer = await check(user.phone, { amountMinor: '4000', feeMinor: '1000' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      recipient: { name: 'Comfort Doe', phone: user.phone, accountStatus: 'active', kycStatus: 'approved', hasWallet: true },
      userBalanceMinor: '5000',
      partnerBalanceMinor: usd(1_000_000).toString(),
    });
  });

  it('when the phone is in the local 0 form, then it is the same account', async () => {
    const user = await createTestUser(harness, { balances: { USD: 5_000n } });
    const answer = await check(`0${user.phone.slice(4)}`);
    expect(answer.body.recipient.phone).toBe(user.phone);
  });

  it('when nobody has the phone, then PKC_3001', async () => {
    await expectRefusal(check('+231770999999'), 404, 'PKC_3001');
  });

  it('when the account is suspended or closed, then PKC_3002', async () => {
    const suspended = await createTestUser(harness, { accountStatus: 'suspended', balances: { USD: 5_000n } });
    const closed = await createTestUser(harness, { accountStatus: 'closed' });
    await expectRefusal(check(suspended.phone), 403, 'PKC_3002');
    await expectRefusal(check(closed.phone), 403, 'PKC_3002');
  });

  it('when the user has no wallet in the currency, then PKC_3003', async () => {
    const user = await createTestUser(harness, { currencies: ['LRD'], balances: { LRD: 5_000n } });
    await expectRefusal(check(user.phone, { currency: 'USD' }), 404, 'PKC_3003');
  });

  it('when the operator closed the wallet, then checks and transfers in that currency are PKC_3003 and the account lists it no more; reopened, it passes again', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 5_000n } });
    const closed = await changeUser(harness.pool, user.phone, { closeWallets: ['USD'] });
    expect(closed.wallets.map((wallet) => wallet.currency)).toEqual(['LRD']);
    expect(closed.closedWallets.map((wallet) => wallet.currency)).toEqual(['USD']);
    await expectRefusal(check(user.phone), 404, 'PKC_3003');
    await expectRefusal(check(user.phone, { type: 'disbursement' }), 404, 'PKC_3003');
    const transfer = transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'USD', amountMinor: '1000' });
    await expectRefusal(postJson(`${harness.baseUrl}/internal/transfers`, transfer), 404, 'PKC_3003');
    const account = await getJson(`${harness.baseUrl}/partner/v1/account/${encodeURIComponent(user.phone)}`, { 'x-partner-id': partnerId });
    expect(account.body.data.currencies).toEqual(['LRD']);
    expect((await check(user.phone, { currency: 'LRD' })).status).toBe(200);

    await changeUser(harness.pool, user.phone, { reopenWallets: ['USD'] });
    expect((await check(user.phone, { type: 'disbursement' })).status).toBe(200);
  });

  it('when the wallet is frozen, then PKC_3004', async () => {
    const user = await createTestUser(harness, { balances: { USD: 5_000n } });
    await changeUser(harness.pool, user.phone, { freeze: ['USD'] });
    await expectRefusal(check(user.phone), 403, 'PKC_3004');
    expect((await check(user.phone, { currency: 'LRD', type: 'disbursement' })).status).toBe(200);
  });

  it('when KYC is pending or rejected, then PKC_3005', async () => {
    const pending = await createTestUser(harness, { kycStatus: 'pending', balances: { USD: 5_000n } });
    const rejected = await createTestUser(harness, { kycStatus: 'rejected', balances: { USD: 5_000n } });
    await expectRefusal(check(pending.phone), 403, 'PKC_3005');
    await expectRefusal(check(rejected.phone), 403, 'PKC_3005');
  });

  it('when the user cannot pay amount plus fee, then a collection is PKC_4001', async () => {
    const user = await createTestUser(harness, { balances: { USD: 1_050n } });
    expect((await check(user.phone, { amountMinor: '1000', feeMinor: '50' })).status).toBe(200);
    await expectRefusal(check(user.phone, { amountMinor: '1000', feeMinor: '51' }), 400, 'PKC_4001');
  });

  it('when the partner cannot pay amount plus fee, then a disbursement is PKC_4002', async () => {
    const user = await createTestUser(harness);
    const poorPartner = await createTestPartner(harness, { USD: 1_050n });
    expect((await check(user.phone, { type: 'disbursement', partnerId: poorPartner, amountMinor: '1000', feeMinor: '50' })).status).toBe(200);
    await expectRefusal(check(user.phone, { type: 'disbursement', partnerId: poorPartner, amountMinor: '1000', feeMinor: '51' }), 400, 'PKC_4002');
    await expectRefusal(check(user.phone, { type: 'disbursement', partnerId: randomUUID() }), 400, 'PKC_4002');
  });

  it('when the amount is above the tier per-transaction maximum, then PKC_4003', async () => {
    const user = await createTestUser(harness, { tier: 'Silver', balances: { USD: usd(500) } });
    expect((await check(user.phone, { amountMinor: usd(100).toString() })).status).toBe(200);
    await expectRefusal(check(user.phone, { amountMinor: (usd(100) + 1n).toString() }), 400, 'PKC_4003');
  });

  it('when today’s postings plus the amount exceed the daily limit, then PKC_4004', async () => {
    const user = await createTestUser(harness, { tier: 'Silver', balances: { USD: usd(500) } });
    await post(user.phone, { amountMinor: usd(100).toString() });
    expect((await check(user.phone, { amountMinor: usd(50).toString() })).status).toBe(200);
    await expectRefusal(check(user.phone, { amountMinor: (usd(50) + 1n).toString() }), 400, 'PKC_4004');
  });

  it('when this process’s clock is a year ahead of the database’s, then usage still counts in the database clock’s windows (check and posting)', async () => {
    const user = await createTestUser(harness, { tier: 'Silver', balances: { USD: usd(500) } });
    await post(user.phone, { amountMinor: usd(100).toString() });
    const realYear = new Date().getUTCFullYear();
    // Only Date is faked: the usage read with the statement is for the wrong (next year's) windows,
    // so the wallet must notice and read it again for the database clock's
    // (windows that start in the future would count nothing and let the limit be broken).
    jest.useFakeTimers({ now: Date.now() + 366 * 24 * 3_600_000, doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'queueMicrotask', 'hrtime', 'performance'] });
    try {
      expect(new Date().getUTCFullYear()).toBe(realYear + 1);
      expect((await check(user.phone, { amountMinor: usd(50).toString() })).status).toBe(200);
      await expectRefusal(check(user.phone, { amountMinor: (usd(50) + 1n).toString() }), 400, 'PKC_4004');
      const refused = await postJson(
        `${harness.baseUrl}/internal/transfers`,
        transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'USD', amountMinor: (usd(50) + 1n).toString() }),
      );
      expect(refused.body).toMatchObject({ code: 'PKC_4004' });
    } finally {
      jest.useRealTimers();
    }
  });

  it('when this week’s postings plus the amount exceed the weekly limit, then PKC_4007', async () => {
    const user = await createTestUser(harness, { tier: 'Silver', balances: { LRD: usd(500) } });
    await post(user.phone, { currency: 'LRD', amountMinor: usd(100).toString() });
    await expectRefusal(check(user.phone, { currency: 'LRD', amountMinor: (usd(50) + 1n).toString() }), 400, 'PKC_4007');
  });

  it('when this month’s postings plus the amount exceed the monthly limit, then PKC_4005', async () => {
    const user = await createTestUser(harness, { tier: 'Silver' });
    await post(user.phone, { type: 'disbursement', amountMinor: usd(100).toString() });
    await expectRefusal(check(user.phone, { type: 'disbursement', amountMinor: (usd(50) + 1n).toString() }), 400, 'PKC_4005');
  });

  it('when this year’s postings plus the amount exceed the yearly limit, then PKC_4008', async () => {
    const user = await createTestUser(harness, { tier: 'Silver' });
    await post(user.phone, { type: 'disbursement', currency: 'LRD', amountMinor: usd(100).toString() });
    await expectRefusal(check(user.phone, { type: 'disbursement', currency: 'LRD', amountMinor: (usd(50) + 1n).toString() }), 400, 'PKC_4008');
  });

  it('when the user made the day’s maximum number of transactions, then PKC_4009', async () => {
    const user = await createTestUser(harness, { tier: 'Basic', balances: { USD: usd(500) } });
    await post(user.phone, {});
    expect((await check(user.phone)).status).toBe(200);
    await post(user.phone, {});
    await expectRefusal(check(user.phone), 400, 'PKC_4009');
  });

  it('when the user made the hour’s maximum number of transactions, then PKC_4010 (HTTP 429)', async () => {
    const user = await createTestUser(harness, { tier: 'Basic', balances: { LRD: usd(500) } });
    await post(user.phone, { currency: 'LRD' });
    await post(user.phone, { currency: 'LRD' });
    await expectRefusal(check(user.phone, { currency: 'LRD' }), 429, 'PKC_4010');
  });

  it('when the user’s tier has no limits at all, then PKC_4011', async () => {
    const user = await createTestUser(harness, { tier: 'Platinum', balances: { USD: usd(500) } });
    await expectRefusal(check(user.phone), 403, 'PKC_4011');
  });

  it('when the tier has no limits for this type and currency, then PKC_4012', async () => {
    const user = await createTestUser(harness, { tier: 'Basic', balances: { LRD: usd(500) } });
    await expectRefusal(check(user.phone, { type: 'disbursement', currency: 'LRD' }), 403, 'PKC_4012');
    expect((await check(user.phone, { type: 'collection', currency: 'LRD' })).status).toBe(200);
  });

  it('when several rules fail, then the first in the documented order is reported', async () => {
    const user = await createTestUser(harness, { tier: 'Platinum', kycStatus: 'pending' });
    await changeUser(harness.pool, user.phone, { freeze: ['USD'] });
    await expectRefusal(check(user.phone), 403, 'PKC_3004');
    await changeUser(harness.pool, user.phone, { accountStatus: 'suspended' });
    await expectRefusal(check(user.phone), 403, 'PKC_3002');
    await changeUser(harness.pool, user.phone, { accountStatus: 'active', unfreeze: ['USD'] });
    await expectRefusal(check(user.phone), 403, 'PKC_3005');
    await changeUser(harness.pool, user.phone, { kycStatus: 'approved' });
    await expectRefusal(check(user.phone), 400, 'PKC_4001');
  });

  it('when checks are repeated right at a limit, then none consumes budget and nothing is written', async () => {
    const user = await createTestUser(harness, { tier: 'Basic', balances: { USD: usd(500) } });
    await post(user.phone, {});
    const newPartner = randomUUID();
    const before = await harness.sql.query<{ transfers: number; accounts: number }>(
      'SELECT (SELECT count(*) FROM transfers)::int AS transfers, (SELECT count(*) FROM ledger_accounts)::int AS accounts',
    );
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await check(user.phone)).status).toBe(200);
      expect((await check(user.phone, { partnerId: newPartner })).body.partnerBalanceMinor).toBe('0');
    }
    const after = await harness.sql.query('SELECT (SELECT count(*) FROM transfers)::int AS transfers, (SELECT count(*) FROM ledger_accounts)::int AS accounts');
    expect(after.rows[0]).toEqual(before.rows[0]);
  });

  it.each([
    ['an amount as a JSON number', { amountMinor: 1000 }],
    ['an amount with decimals', { amountMinor: '10.50' }],
    ['a zero amount', { amountMinor: '0' }],
    ['a negative fee', { feeMinor: '-1' }],
    ['an unknown currency', { currency: 'EUR' }],
    // A reversal is the operator's alone (reverse-disbursement), never a movement of the internal API.
    ['an unknown type', { type: 'reversal' }],
    ['a partner id that is not a UUID', { partnerId: 'acme' }],
    ['no amount', { amountMinor: undefined }],
  ])('when the body has %s, then PKC_2008', async (_problem, fields) => {
    await expectRefusal(check('+231770000001', fields as CheckFields), 400, 'PKC_2008');
  });

  it('when the phone is not a Liberian mobile number, then PKC_2001', async () => {
    await expectRefusal(check('12345'), 400, 'PKC_2001');
  });

  it('when the body is not JSON, then PKC_2008', async () => {
    await expectRefusal(postJson(`${harness.baseUrl}/internal/checks`, '{"type":'), 400, 'PKC_2008');
  });
});
