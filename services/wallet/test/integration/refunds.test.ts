import { randomUUID } from 'node:crypto';
import type { Currency } from '@pwa/money';
import { refusalSchema, walletCheckAnswerSchema, walletCheckBody, walletPaths, walletTransferAnswerSchema, walletTransferBody } from '@pwa/contracts';
import {
  balanceOfPartner,
  balanceOfSystemAccount,
  balanceOfWallet,
  createTestPartner,
  createTestUser,
  expectLedgerInvariantsHold,
  getJson,
  postJson,
  postingCountOf,
  startWalletHarness,
  transferBody,
  type HttpAnswer,
  type WalletHarness,
} from './wallet-harness';
import { changeUser } from '../../src/use-cases/manage-users';
import { setLimit } from '../../src/use-cases/manage-limits';
import { usageWithin } from '../../src/store/limit-store';
import { limitWindowsAt } from '../../src/domain/limit-windows';
import { findUserByPhone } from '../../src/store/user-store';

/**
 * Refunds through the wallet's internal API as the collections service calls it (decision 0053):
 * partner -amount, user wallet +amount, no fee, the account rules and the partner's balance
 * checked, no limit checked or consumed.
 */
let harness: WalletHarness;

beforeAll(async () => {
  harness = await startWalletHarness();
});

afterAll(async () => {
  await expectLedgerInvariantsHold(harness);
  await harness.stop();
});

const post = (path: string, body: unknown): Promise<HttpAnswer> => postJson(`${harness.baseUrl}${path}`, body);

let refundCounter = 0;
function refundReferenceId(): string {
  refundCounter += 1;
  return `PKR-1718000000000-${refundCounter.toString(16).toUpperCase().padStart(8, '0')}`;
}

/** A refund body built the way the collections service builds it. */
function refund(fields: { partnerId: string; phone: string; currency: Currency; amountMinor: bigint; transferId?: string }) {
  return walletTransferBody({
    type: 'refund',
    partnerId: fields.partnerId,
    phone: fields.phone,
    currency: fields.currency,
    amountMinor: fields.amountMinor,
    feeMinor: 0n,
    transferId: fields.transferId ?? randomUUID(),
    reference: 'refund of a collection',
    referenceId: refundReferenceId(),
    externalId: `refund-${randomUUID()}`,
  });
}

async function entriesOf(transferId: string): Promise<{ kind: string; amount_minor: string }[]> {
  const result = await harness.sql.query(
    `SELECT a.kind, e.amount_minor FROM entries e JOIN ledger_accounts a ON a.account_id = e.account_id WHERE e.transfer_id = $1 ORDER BY e.entry_id`,
    [transferId],
  );
  return result.rows;
}

async function usageOf(phone: string, currency: Currency) {
  const user = await findUserByPhone(harness.sql, phone);
  if (!user) throw new Error(`no user ${phone}`);
  return usageWithin(harness.sql, user.userId, 'collection', currency, limitWindowsAt(new Date()));
}

describe('refunds on the internal API', () => {
  it('when a refund is posted, then the partner pays exactly the amount to the user, no fee moves, and the ledger holds', async () => {
    const user = await createTestUser(harness, { balances: { USD: 1_000n } });
    const partnerId = await createTestPartner(harness, { USD: 10_000n });
    const feeRevenueBefore = await balanceOfSystemAccount(harness, 'fee_revenue', 'USD');
    const body = refund({ partnerId, phone: user.phone, currency: 'USD', amountMinor: 2_551n });

    const checked = await post(walletPaths.checks, walletCheckBody({ type: 'refund', partnerId, phone: user.phone, currency: 'USD', amountMinor: 2_551n, feeMinor: 0n }));
    expect(checked.status).toBe(200);
    expect(walletCheckAnswerSchema.parse(checked.body)).toMatchObject({ userBalanceMinor: 1_000n, partnerBalanceMinor: 10_000n });

    const answer = await post(walletPaths.transfers, body);
    expect(answer.status).toBe(200);
    expect(walletTransferAnswerSchema.parse(answer.body)).toMatchObject({ transferId: body.transferId, status: 'posted' });
    expect(await entriesOf(body.transferId)).toEqual([
      { kind: 'partner', amount_minor: '-2551' },
      { kind: 'user_wallet', amount_minor: '2551' },
    ]);
    expect(await balanceOfWallet(harness, user.phone, 'USD')).toBe(3_551n);
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(7_449n);
    expect(await balanceOfSystemAccount(harness, 'fee_revenue', 'USD')).toBe(feeRevenueBefore);
    const stored = await harness.sql.query(`SELECT kind, fee_minor::text, reference_id, external_id FROM transfers WHERE transfer_id = $1`, [body.transferId]);
    expect(stored.rows).toEqual([{ kind: 'refund', fee_minor: '0', reference_id: body.referenceId, external_id: body.externalId }]);
    await expectLedgerInvariantsHold(harness);
  });

  it('when a refund carries a fee, then the check and the transfer answer 400 PKC_2008 and nothing moves', async () => {
    const user = await createTestUser(harness);
    const partnerId = await createTestPartner(harness, { USD: 10_000n });
    const movement = { type: 'refund' as const, partnerId, phone: user.phone, currency: 'USD' as const, amountMinor: 100n, feeMinor: 1n };
    const checked = await post(walletPaths.checks, walletCheckBody(movement));
    expect([checked.status, refusalSchema.parse(checked.body).code]).toEqual([400, 'PKC_2008']);
    expect(checked.body.message).toContain('feeMinor');
    const transferId = randomUUID();
    const posted = await post(walletPaths.transfers, walletTransferBody({ ...movement, transferId, reference: null }));
    expect([posted.status, refusalSchema.parse(posted.body).code]).toEqual([400, 'PKC_2008']);
    expect(await postingCountOf(harness, transferId)).toEqual({ transfers: 0, entries: 0 });
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(10_000n);
  });

  it.each([
    ['the user has no account', 'PKC_3001'],
    ['the account is suspended', 'PKC_3002'],
    ['the user has no wallet in the currency', 'PKC_3003'],
    ['the wallet is frozen', 'PKC_3004'],
    ['KYC is not approved', 'PKC_3005'],
    ['the partner balance is below the amount', 'PKC_4002'],
  ] as const)('when %s, then the check and the refund answer %s and nothing moves', async (_situation, code) => {
    const user = await createTestUser(harness, { currencies: code === 'PKC_3003' ? ['LRD'] : ['LRD', 'USD'], balances: { LRD: 500n } });
    const partnerId = await createTestPartner(harness, { USD: code === 'PKC_4002' ? 999n : 10_000n });
    const phone = code === 'PKC_3001' ? '+231779999999' : user.phone;
    if (code === 'PKC_3002') await changeUser(harness.pool, user.phone, { accountStatus: 'suspended' });
    if (code === 'PKC_3004') await changeUser(harness.pool, user.phone, { freeze: ['USD'] });
    if (code === 'PKC_3005') await changeUser(harness.pool, user.phone, { kycStatus: 'pending' });
    const partnerBefore = await balanceOfPartner(harness, partnerId, 'USD');

    const checked = await post(walletPaths.checks, walletCheckBody({ type: 'refund', partnerId, phone, currency: 'USD', amountMinor: 1_000n, feeMinor: 0n }));
    expect(refusalSchema.parse(checked.body).code).toBe(code);
    const body = refund({ partnerId, phone, currency: 'USD', amountMinor: 1_000n });
    const posted = await post(walletPaths.transfers, body);
    expect(refusalSchema.parse(posted.body).code).toBe(code);
    expect(posted.status).toBe(checked.status);

    expect(await postingCountOf(harness, body.transferId)).toEqual({ transfers: 0, entries: 0 });
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(partnerBefore);
    expect(await balanceOfWallet(harness, user.phone, 'USD')).toBe(0n);
    expect(await balanceOfWallet(harness, user.phone, 'LRD')).toBe(500n);
  });

  it('when a user is at their daily collection limit, then a refund still posts and consumes no limit: usage is unchanged and the next collection is refused the same way', async () => {
    await setLimit(harness.pool, { tier: 'Silver', transactionType: 'collection', currency: 'USD' }, { dailyMaxMinor: 3_000n, perDayCountMax: 1_000, perHourCountMax: 1_000 });
    const user = await createTestUser(harness, { tier: 'Silver', balances: { USD: 10_000n } });
    const partnerId = await createTestPartner(harness, { USD: 50_000n });
    const collect = (amountMinor: string) => post(walletPaths.transfers, transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'USD', amountMinor }));
    expect((await collect('3000')).status).toBe(200);
    expect((await collect('1')).body.code).toBe('PKC_4004');
    const usageBefore = await usageOf(user.phone, 'USD');

    const body = refund({ partnerId, phone: user.phone, currency: 'USD', amountMinor: 3_000n });
    expect((await post(walletPaths.checks, walletCheckBody({ type: 'refund', partnerId, phone: user.phone, currency: 'USD', amountMinor: 3_000n, feeMinor: 0n }))).status).toBe(200);
    expect((await post(walletPaths.transfers, body)).status).toBe(200);

    expect(await usageOf(user.phone, 'USD')).toEqual(usageBefore);
    expect((await collect('1')).body.code).toBe('PKC_4004');
    expect(await balanceOfWallet(harness, user.phone, 'USD')).toBe(10_000n);
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(50_000n);
  });

  it('when the user’s tier has no limits at all, or none for the currency, then a refund is never refused with PKC_4011 or PKC_4012', async () => {
    await harness.sql.query(`DELETE FROM tier_limits WHERE tier = 'Platinum'`);
    await harness.sql.query(`DELETE FROM tier_limits WHERE tier = 'Basic' AND currency = 'LRD'`);
    const partnerId = await createTestPartner(harness, { LRD: 10_000n });
    for (const [tier, code] of [['Platinum', 'PKC_4011'], ['Basic', 'PKC_4012']] as const) {
      const user = await createTestUser(harness, { tier, balances: { LRD: 1_000n } });
      const collection = await post(walletPaths.transfers, transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'LRD', amountMinor: '100' }));
      expect(collection.body.code).toBe(code);
      expect((await post(walletPaths.checks, walletCheckBody({ type: 'refund', partnerId, phone: user.phone, currency: 'LRD', amountMinor: 100n, feeMinor: 0n }))).status).toBe(200);
      expect((await post(walletPaths.transfers, refund({ partnerId, phone: user.phone, currency: 'LRD', amountMinor: 100n }))).status).toBe(200);
      expect(await balanceOfWallet(harness, user.phone, 'LRD')).toBe(1_100n);
    }
  });

  it('when the same refund id is posted again, even after the partner’s balance is gone, then the first answer comes back and money moves once', async () => {
    const user = await createTestUser(harness);
    const partnerId = await createTestPartner(harness, { USD: 1_000n });
    const body = refund({ partnerId, phone: user.phone, currency: 'USD', amountMinor: 1_000n });
    const first = await post(walletPaths.transfers, body);
    const second = await post(walletPaths.transfers, body);
    expect(first.status).toBe(200);
    expect(second).toEqual(first);
    expect(await postingCountOf(harness, body.transferId)).toEqual({ transfers: 1, entries: 2 });
    expect(await balanceOfWallet(harness, user.phone, 'USD')).toBe(1_000n);
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(0n);
  });

  it('when 30 refunds of one partner arrive at once and together exceed its balance, then the posted ones sum to at most the balance and every balance agrees with them', async () => {
    const balanceMinor = 10_000n;
    const partnerId = await createTestPartner(harness, { USD: balanceMinor });
    const users = await Promise.all(Array.from({ length: 30 }, () => createTestUser(harness)));
    const bodies = users.map((user, index) => refund({ partnerId, phone: user.phone, currency: 'USD', amountMinor: 200n + 37n * BigInt(index) }));
    expect(bodies.reduce((sum, body) => sum + BigInt(body.amountMinor), 0n)).toBeGreaterThan(balanceMinor);

    const answers = await Promise.all(bodies.map((body) => post(walletPaths.transfers, body)));

    const posted = bodies.filter((_body, index) => answers[index]?.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused.every((answer) => answer.body.code === 'PKC_4002')).toBe(true);
    expect(posted.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    const postedSum = posted.reduce((sum, body) => sum + BigInt(body.amountMinor), 0n);
    expect(postedSum).toBeLessThanOrEqual(balanceMinor);
    const partnerAfter = await balanceOfPartner(harness, partnerId, 'USD');
    expect(partnerAfter).toBe(balanceMinor - postedSum);
    // Each refused refund was refused because what was left could not pay it.
    const smallestRefused = bodies.filter((_body, index) => answers[index]?.status !== 200).map((body) => BigInt(body.amountMinor)).sort((a, b) => (a < b ? -1 : 1))[0];
    expect(smallestRefused === undefined || smallestRefused > partnerAfter).toBe(true);
    for (const [index, user] of users.entries()) {
      const body = bodies[index];
      if (!body) throw new Error('missing body');
      expect(await balanceOfWallet(harness, user.phone, 'USD')).toBe(answers[index]?.status === 200 ? BigInt(body.amountMinor) : 0n);
      expect(await postingCountOf(harness, body.transferId)).toEqual(answers[index]?.status === 200 ? { transfers: 1, entries: 2 } : { transfers: 0, entries: 0 });
    }
    await expectLedgerInvariantsHold(harness);
  });

  it('when a refund posted, then the partner’s statement shows it as a negative refund movement named by its PKR-… with the balance after it', async () => {
    const user = await createTestUser(harness, { balances: { USD: 500n } });
    const partnerId = await createTestPartner(harness);
    expect((await post(walletPaths.transfers, { ...transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'USD', amountMinor: '400', feeMinor: '10' }), referenceId: 'PKC-1-0A0A', externalId: 'order-1' })).status).toBe(200);
    const body = refund({ partnerId, phone: user.phone, currency: 'USD', amountMinor: 150n });
    expect((await post(walletPaths.transfers, body)).status).toBe(200);

    const hourMs = 60 * 60 * 1000;
    const query = new URLSearchParams({ currency: 'USD', from: new Date(Date.now() - hourMs).toISOString(), to: new Date(Date.now() + hourMs).toISOString() });
    const page = (await getJson(`${harness.baseUrl}/partner/v1/statement?${query.toString()}`, { 'x-partner-id': partnerId })).body.data;
    expect(page.items.map((item: any) => [item.type, item.amount, item.balanceAfter, item.referenceId, item.externalId])).toEqual([
      ['collection', 4, 4, 'PKC-1-0A0A', 'order-1'],
      ['refund', -1.5, 2.5, body.referenceId, body.externalId],
    ]);
    expect(page).toMatchObject({ openingBalance: 0, closingBalance: 2.5 });
    const csv = await fetch(`${harness.baseUrl}/partner/v1/statement?${query.toString()}&format=csv`, { headers: { 'x-partner-id': partnerId } });
    expect(await csv.text()).toContain(`,refund,${body.referenceId ?? ''},`);
  });
});
