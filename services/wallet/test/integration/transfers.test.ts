import { randomUUID } from 'node:crypto';
import {
  balanceOfPartner,
  balanceOfSystemAccount,
  balanceOfWallet,
  createTestPartner,
  createTestUser,
  expectLedgerInvariantsHold,
  postJson,
  insertBackdatedCollection,
  postingCountOf,
  startWalletHarness,
  transferBody,
  type WalletHarness,
} from './wallet-harness';
import { setLimit } from '../../src/use-cases/manage-limits';
import { creditWalletInSandbox } from '../../src/use-cases/operator-postings';

let harness: WalletHarness;

beforeAll(async () => {
  harness = await startWalletHarness();
});

afterAll(async () => {
  await expectLedgerInvariantsHold(harness);
  await harness.stop();
});

const transfersUrl = (): string => `${harness.baseUrl}/internal/transfers`;
const cancelUrl = (transferId: string): string => `${harness.baseUrl}/internal/transfers/${transferId}/cancel`;

async function entriesOf(transferId: string): Promise<{ kind: string; currency: string; amount_minor: string }[]> {
  const result = await harness.sql.query(
    `SELECT a.kind, e.currency, e.amount_minor FROM entries e JOIN ledger_accounts a ON a.account_id = e.account_id
      WHERE e.transfer_id = $1 ORDER BY e.entry_id`,
    [transferId],
  );
  return result.rows;
}

describe('POST /internal/transfers', () => {
  it('when a collection is posted, then the user pays amount plus fee, the partner gets the amount and fee revenue the fee', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 100_000n } });
    const partnerId = await createTestPartner(harness);
    const feeRevenueBefore = await balanceOfSystemAccount(harness, 'fee_revenue', 'LRD');
    const body = transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'LRD', amountMinor: '25000', feeMinor: '375' });

    const answer = await postJson(transfersUrl(), body);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ transferId: body.transferId, transactionId: expect.stringMatching(/^TXN-[0-9A-F]{16}$/), postedAt: expect.any(String), status: 'posted' });
    expect(new Date(answer.body.postedAt).toISOString()).toBe(answer.body.postedAt);
    expect(await entriesOf(body.transferId)).toEqual([
      { kind: 'user_wallet', currency: 'LRD', amount_minor: '-25375' },
      { kind: 'partner', currency: 'LRD', amount_minor: '25000' },
      { kind: 'fee_revenue', currency: 'LRD', amount_minor: '375' },
    ]);
    expect(await balanceOfWallet(harness, user.phone, 'LRD')).toBe(100_000n - 25_375n);
    expect(await balanceOfPartner(harness, partnerId, 'LRD')).toBe(25_000n);
    expect(await balanceOfSystemAccount(harness, 'fee_revenue', 'LRD')).toBe(feeRevenueBefore + 375n);
  });

  it('when a disbursement is posted, then the partner pays amount plus fee and the user receives the amount', async () => {
    const user = await createTestUser(harness);
    const partnerId = await createTestPartner(harness, { USD: 10_000n });
    const body = transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'USD', amountMinor: '5000', feeMinor: '100' });

    expect((await postJson(transfersUrl(), body)).status).toBe(200);

    expect(await entriesOf(body.transferId)).toEqual([
      { kind: 'partner', currency: 'USD', amount_minor: '-5100' },
      { kind: 'user_wallet', currency: 'USD', amount_minor: '5000' },
      { kind: 'fee_revenue', currency: 'USD', amount_minor: '100' },
    ]);
    expect(await balanceOfWallet(harness, user.phone, 'USD')).toBe(5_000n);
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(4_900n);
  });

  it('when the fee is zero, then the posting has no fee entry', async () => {
    const user = await createTestUser(harness, { balances: { USD: 1_000n } });
    const partnerId = await createTestPartner(harness);
    const body = transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'USD', amountMinor: '1000' });
    expect((await postJson(transfersUrl(), body)).status).toBe(200);
    expect((await entriesOf(body.transferId)).map((entry) => entry.kind)).toEqual(['user_wallet', 'partner']);
    expect(await balanceOfWallet(harness, user.phone, 'USD')).toBe(0n);
  });

  it('when every stored balance is compared with its entries after postings, then they are equal', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 50_000n, USD: 5_000n } });
    const partnerId = await createTestPartner(harness, { LRD: 50_000n, USD: 5_000n });
    for (const [type, currency, amountMinor] of [
      ['collection', 'LRD', '1000'],
      ['disbursement', 'LRD', '2000'],
      ['collection', 'USD', '300'],
      ['disbursement', 'USD', '400'],
    ] as const) {
      expect((await postJson(transfersUrl(), transferBody({ type, partnerId, phone: user.phone, currency, amountMinor, feeMinor: '7' }))).status).toBe(200);
    }
    const mismatched = await harness.sql.query(
      `SELECT a.account_id FROM ledger_accounts a LEFT JOIN (SELECT account_id, sum(amount_minor) AS total FROM entries GROUP BY account_id) e USING (account_id)
        WHERE a.balance_minor <> coalesce(e.total, 0)`,
    );
    expect(mismatched.rows).toEqual([]);
  });

  it('when the same transfer id is posted again, then the first result comes back and money moves once', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 10_000n } });
    const partnerId = await createTestPartner(harness);
    const body = transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'LRD', amountMinor: '4000', feeMinor: '100' });
    const first = await postJson(transfersUrl(), body);
    const second = await postJson(transfersUrl(), body);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await balanceOfWallet(harness, user.phone, 'LRD')).toBe(5_900n);
    expect(await postingCountOf(harness, body.transferId)).toEqual({ transfers: 1, entries: 3 });
  });

  it('when a replay arrives after the balance is gone, then it still answers the first result instead of refusing', async () => {
    const user = await createTestUser(harness, { balances: { USD: 1_000n } });
    const partnerId = await createTestPartner(harness);
    const body = transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'USD', amountMinor: '1000' });
    const first = await postJson(transfersUrl(), body);
    const replay = await postJson(transfersUrl(), body);
    expect(replay.body).toEqual(first.body);
  });

  it('when a check fails at posting time, then the code comes back and nothing is posted', async () => {
    const user = await createTestUser(harness, { balances: { USD: 999n } });
    const partnerId = await createTestPartner(harness);
    const body = transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'USD', amountMinor: '1000' });
    const answer = await postJson(transfersUrl(), body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, code: 'PKC_4001' });
    expect(await postingCountOf(harness, body.transferId)).toEqual({ transfers: 0, entries: 0 });
    expect(await balanceOfWallet(harness, user.phone, 'USD')).toBe(999n);
  });

  it('when a transfer id failed a check, then it can be posted later once the facts allow it', async () => {
    const user = await createTestUser(harness, { balances: { USD: 500n } });
    const partnerId = await createTestPartner(harness);
    const body = transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'USD', amountMinor: '1000' });
    expect((await postJson(transfersUrl(), body)).body.code).toBe('PKC_4001');
    await creditWalletInSandbox(harness.pool, 'sandbox', { phone: user.phone, currency: 'USD', amountMinor: 500n });
    expect((await postJson(transfersUrl(), body)).body.status).toBe('posted');
  });

  it('when the user is unknown at posting time, then PKC_3001', async () => {
    const answer = await postJson(transfersUrl(), transferBody({ type: 'disbursement', partnerId: randomUUID(), phone: '+231889999999', currency: 'LRD', amountMinor: '100' }));
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('PKC_3001');
  });

  it('when a posting is made, then it consumes limit budget that a later check sees', async () => {
    await setLimit(harness.pool, { tier: 'Silver', transactionType: 'disbursement', currency: 'USD' }, { perDayCountMax: 1, perHourCountMax: 1 });
    const user = await createTestUser(harness, { tier: 'Silver' });
    const partnerId = await createTestPartner(harness, { USD: 10_000n });
    const fields = { type: 'disbursement' as const, partnerId, phone: user.phone, currency: 'USD' as const, amountMinor: '100' };
    const checkFields = { ...fields, feeMinor: '0' };
    expect((await postJson(`${harness.baseUrl}/internal/checks`, checkFields)).status).toBe(200);
    expect((await postJson(transfersUrl(), transferBody(fields))).status).toBe(200);
    expect((await postJson(`${harness.baseUrl}/internal/checks`, checkFields)).body.code).toBe('PKC_4009');
    expect((await postJson(transfersUrl(), transferBody(fields))).body.code).toBe('PKC_4009');
  });

  it('when yesterday’s postings filled the daily limit, then today starts with a fresh daily budget', async () => {
    await setLimit(harness.pool, { tier: 'Basic', transactionType: 'collection', currency: 'LRD' }, { perTransactionMaxMinor: 1_000n, dailyMaxMinor: 1_000n, perDayCountMax: 1, perHourCountMax: 1 });
    const user = await createTestUser(harness, { tier: 'Basic', balances: { LRD: 5_000n } });
    const partnerId = await createTestPartner(harness);
    await insertBackdatedCollection(harness, { phone: user.phone, partnerId, currency: 'LRD', amountMinor: 1_000n, minutesBeforeToday: 1 });
    const fields = { type: 'collection' as const, partnerId, phone: user.phone, currency: 'LRD' as const, amountMinor: '1000' };
    expect((await postJson(transfersUrl(), transferBody(fields))).body.status).toBe('posted');
    expect((await postJson(transfersUrl(), transferBody(fields))).body.code).toBe('PKC_4004');
  });

  it.each([
    ['no transfer id', { transferId: undefined }],
    ['a transfer id that is not a UUID', { transferId: 'abc' }],
    ['a reference longer than 200 characters', { reference: 'x'.repeat(201) }],
    ['an amount as a JSON number', { amountMinor: 100 }],
  ])('when the body has %s, then PKC_2008 and nothing is posted', async (_problem, fields) => {
    const user = await createTestUser(harness, { balances: { LRD: 1_000n } });
    const body = { ...transferBody({ type: 'collection', partnerId: randomUUID(), phone: user.phone, currency: 'LRD', amountMinor: '100' }), ...fields };
    const answer = await postJson(transfersUrl(), body);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('PKC_2008');
    expect(await balanceOfWallet(harness, user.phone, 'LRD')).toBe(1_000n);
  });
});

describe('POST /internal/transfers/:transferId/cancel', () => {
  it('when a transfer id is cancelled before it is posted, then posting it answers 409 PKC_7004 and moves nothing', async () => {
    const user = await createTestUser(harness);
    const partnerId = await createTestPartner(harness, { LRD: 10_000n });
    const body = transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'LRD', amountMinor: '1000' });

    const cancelled = await postJson(cancelUrl(body.transferId), {});
    const posted = await postJson(transfersUrl(), body);

    expect(cancelled).toEqual({ status: 200, body: { transferId: body.transferId, state: 'cancelled' } });
    expect(posted.status).toBe(409);
    expect(posted.body).toMatchObject({ success: false, code: 'PKC_7004' });
    expect(await postingCountOf(harness, body.transferId)).toEqual({ transfers: 0, entries: 0 });
    expect(await balanceOfPartner(harness, partnerId, 'LRD')).toBe(10_000n);
  });

  it('when a posted transfer id is cancelled, then the answer says it was posted, with its transaction id', async () => {
    const user = await createTestUser(harness);
    const partnerId = await createTestPartner(harness, { LRD: 10_000n });
    const body = transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'LRD', amountMinor: '1000' });
    const posted = await postJson(transfersUrl(), body);

    const cancelled = await postJson(cancelUrl(body.transferId), {});

    expect(cancelled).toEqual({
      status: 200,
      body: { transferId: body.transferId, state: 'posted', transactionId: posted.body.transactionId, postedAt: posted.body.postedAt },
    });
    expect(await balanceOfWallet(harness, user.phone, 'LRD')).toBe(1_000n);
  });

  it('when a transfer id is cancelled twice, then both answers say cancelled', async () => {
    const transferId = randomUUID();
    expect((await postJson(cancelUrl(transferId), {})).body.state).toBe('cancelled');
    expect((await postJson(cancelUrl(transferId), {})).body.state).toBe('cancelled');
  });

  it('when the transfer id is not a UUID, then PKC_2008', async () => {
    const answer = await postJson(cancelUrl('not-a-uuid'), {});
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('PKC_2008');
  });
});
