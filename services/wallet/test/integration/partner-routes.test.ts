import { randomUUID } from 'node:crypto';
import { changeUser } from '../../src/use-cases/manage-users';
import { createTestPartner, createTestUser, expectLedgerInvariantsHold, getJson, postJson, startWalletHarness, transferBody, type WalletHarness } from './wallet-harness';

let harness: WalletHarness;

beforeAll(async () => {
  harness = await startWalletHarness();
});

afterAll(async () => {
  await expectLedgerInvariantsHold(harness);
  await harness.stop();
});

const accountUrl = (phone: string): string => `${harness.baseUrl}/partner/v1/account/${encodeURIComponent(phone)}`;
const balanceUrl = (): string => `${harness.baseUrl}/partner/v1/balance`;

describe('GET /partner/v1/account/:phone', () => {
  it('when the account exists, then the envelope has name, +231 phone, statuses and currencies', async () => {
    const user = await createTestUser(harness, { name: 'Musu Kollie' });
    const answer = await getJson(accountUrl(user.phone), { 'x-partner-id': randomUUID() });
    expect(answer).toEqual({
      status: 200,
      body: { success: true, data: { name: 'Musu Kollie', phone: user.phone, accountStatus: 'active', kycStatus: 'approved', currencies: ['LRD', 'USD'] } },
    });
  });

  it('when the phone is given in the local 0 form or with separators, then the same account is found', async () => {
    const user = await createTestUser(harness);
    const national = user.phone.slice(4);
    expect((await getJson(accountUrl(`0${national}`))).body.data.phone).toBe(user.phone);
    expect((await getJson(accountUrl(`0${national.slice(0, 2)} ${national.slice(2, 5)} ${national.slice(5)}`))).body.data.phone).toBe(user.phone);
  });

  it('when a wallet is frozen or missing, then its currency is not listed', async () => {
    const frozen = await createTestUser(harness);
    await changeUser(harness.pool, frozen.phone, { freeze: ['USD'] });
    const lrdOnly = await createTestUser(harness, { currencies: ['LRD'] });
    expect((await getJson(accountUrl(frozen.phone))).body.data.currencies).toEqual(['LRD']);
    expect((await getJson(accountUrl(lrdOnly.phone))).body.data.currencies).toEqual(['LRD']);
  });

  it('when the account is closed or KYC pending, then it is still found, with its statuses', async () => {
    const closed = await createTestUser(harness, { accountStatus: 'closed', kycStatus: 'pending' });
    expect((await getJson(accountUrl(closed.phone))).body.data).toMatchObject({ accountStatus: 'closed', kycStatus: 'pending' });
  });

  it('when nobody has the phone, then 404 PKC_3001', async () => {
    const answer = await getJson(accountUrl('+231889999998'));
    expect(answer).toEqual({ status: 404, body: { success: false, code: 'PKC_3001', message: expect.any(String) } });
  });

  it.each(['12345', '+231123456789', '231770000001', 'abc'])('when the phone is %s, then 400 PKC_2001', async (phone) => {
    const answer = await getJson(accountUrl(phone));
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('PKC_2001');
  });
});

describe('GET /partner/v1/balance', () => {
  it('when the partner has no accounts yet, then both balances are 0', async () => {
    expect(await getJson(balanceUrl(), { 'x-partner-id': randomUUID() })).toEqual({ status: 200, body: { success: true, data: { LRD: 0, USD: 0 } } });
  });

  it('when the partner was funded and collected, then the balances are JSON numbers with their cents', async () => {
    const partnerId = await createTestPartner(harness, { LRD: 150_050n });
    const user = await createTestUser(harness, { balances: { USD: 1_000n } });
    await postJson(`${harness.baseUrl}/internal/transfers`, transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'USD', amountMinor: '995', feeMinor: '5' }));
    const answer = await getJson(balanceUrl(), { 'x-partner-id': partnerId.toUpperCase() });
    expect(answer).toEqual({ status: 200, body: { success: true, data: { LRD: 1500.5, USD: 9.95 } } });
  });

  it('when the x-partner-id header is missing or not a UUID, then 403 PKC_6005', async () => {
    for (const headers of [{}, { 'x-partner-id': 'acme' }] as Record<string, string>[]) {
      const answer = await getJson(balanceUrl(), headers);
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ success: false, code: 'PKC_6005' });
    }
  });
});
