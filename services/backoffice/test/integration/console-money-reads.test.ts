import { randomUUID } from 'node:crypto';
import { fundPartner } from '../../../wallet/src/use-cases/operator-postings';
import { createTestUser, postJson, startWalletHarness, transferBody, type WalletHarness } from '../../../wallet/test/integration/wallet-harness';
import { startConsoleStand, type ConsoleStand, type SignedInOperator } from '../support/console-stand';

/**
 * Money in the console for every role, read from the real wallet (and auth) in-process on each
 * call: transactions across partners searched by referenceId, externalId, phone and date range in
 * keyset pages; a partner's balances; the ledger check.
 */
let wallet: WalletHarness;
let stand: ConsoleStand;
let people: SignedInOperator[];
let viewer: SignedInOperator;
let partnerId: string;
let otherPartnerId: string;
let phone: string;
const references: string[] = [];
let startedAt: string;

beforeAll(async () => {
  wallet = await startWalletHarness();
  stand = await startConsoleStand('backoffice_money_reads', { walletUrl: wallet.baseUrl });
  people = [
    (viewer = await stand.signedInOperator('Money Viewer', ['viewer'])),
    await stand.signedInOperator('Money Maker', ['maker']),
    await stand.signedInOperator('Money Checker', ['checker']),
    await stand.signedInOperator('Money Admin', ['admin']),
  ];
  partnerId = await stand.newPartnerId('Money Partner');
  otherPartnerId = await stand.newPartnerId('Other Money Partner');
  startedAt = new Date(Date.now() - 1_000).toISOString();
  await fundPartner(wallet.pool, { partnerId, currency: 'USD', amountMinor: 100_000n, reference: 'bank transfer' });
  await fundPartner(wallet.pool, { partnerId: otherPartnerId, currency: 'LRD', amountMinor: 50_000n, reference: 'bank transfer' });
  const user = await createTestUser(wallet);
  phone = user.phone;
  for (let index = 0; index < 5; index += 1) {
    const referenceId = `PKD-1718000000000-${randomUUID().replace(/-/g, '').slice(0, 24).toUpperCase()}`;
    references.push(referenceId);
    const body = { ...transferBody({ type: 'disbursement', partnerId, phone, currency: 'USD', amountMinor: String(1_000 + index), feeMinor: '10' }), referenceId, externalId: `money-read-${index}` };
    expect((await postJson(`${wallet.baseUrl}/internal/transfers`, body)).status).toBe(200);
  }
});

afterAll(async () => {
  await stand?.stop();
  await wallet?.stop();
});

const get = (person: SignedInOperator, path: string) => stand.call('GET', path, { cookie: person.cookie });
type Listed = { transactionId: string; referenceId: string | null; externalId: string | null; amountMinor: string; kind: string; phone: string | null };

describe('money in the console', () => {
  test('when each role searches transactions by the user’s phone as typed, then all see them newest first in keyset pages that neither skip nor repeat', async () => {
    const typed = `0${phone.slice(4)}`;
    for (const person of people) {
      const seen: Listed[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 5; page += 1) {
        const listed = await get(person, `/api/v1/transactions?phone=${encodeURIComponent(typed)}&pageSize=2${cursor === null ? '' : `&cursor=${cursor}`}`);
        expect(listed.status).toBe(200);
        seen.push(...(listed.body.data?.transactions as Listed[]));
        cursor = listed.body.data?.nextCursor as string | null;
        if (cursor === null) break;
      }
      expect(seen.map((transaction) => transaction.referenceId)).toEqual([...references].reverse());
      expect(seen.map((transaction) => transaction.amountMinor)).toEqual(['1004', '1003', '1002', '1001', '1000']);
      expect(new Set(seen.map((transaction) => transaction.phone))).toEqual(new Set([phone]));
    }
  });

  test('when a search names a referenceId, an externalId, a partner or a date range, then it finds exactly those', async () => {
    const byReference = await get(viewer, `/api/v1/transactions?referenceId=${references[2]}`);
    expect((byReference.body.data?.transactions as Listed[]).map((transaction) => [transaction.referenceId, transaction.kind])).toEqual([[references[2], 'disbursement']]);
    const byExternal = await get(viewer, '/api/v1/transactions?externalId=money-read-4');
    expect((byExternal.body.data?.transactions as Listed[]).map((transaction) => transaction.referenceId)).toEqual([references[4]]);
    const byPartner = await get(viewer, `/api/v1/transactions?partnerId=${otherPartnerId}`);
    expect((byPartner.body.data?.transactions as Listed[]).map((transaction) => [transaction.kind, transaction.amountMinor])).toEqual([['funding', '50000']]);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await get(viewer, `/api/v1/transactions?partnerId=${partnerId}&from=${encodeURIComponent(future)}`)).body.data?.transactions).toEqual([]);
    const inRange = await get(viewer, `/api/v1/transactions?partnerId=${partnerId}&from=${encodeURIComponent(startedAt)}&to=${encodeURIComponent(future)}&pageSize=100`);
    expect((inRange.body.data?.transactions as Listed[]).length).toBe(6);
  });

  test('when each role reads a partner’s balances and the ledger check, then the balances are to the cent and the ledger is ok', async () => {
    for (const person of people) {
      expect(await get(person, `/api/v1/partners/${partnerId}/balances`)).toMatchObject({ status: 200, body: { data: { partnerId, balances: [{ currency: 'USD', balanceMinor: String(100_000 - (1_000 + 1_001 + 1_002 + 1_003 + 1_004) - 5 * 10) }] } } });
      const check = await get(person, '/api/v1/ledger-check');
      expect(check).toMatchObject({ status: 200, body: { data: { ok: true, problems: [] } } });
    }
  });

  test('when a phone, a date range, a cursor or a partner is wrong, or nobody is signed in, then each is refused with its code', async () => {
    expect(await get(viewer, '/api/v1/transactions?phone=12345')).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await get(viewer, `/api/v1/transactions?from=${encodeURIComponent(new Date().toISOString())}&to=${encodeURIComponent(startedAt)}`)).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await get(viewer, '/api/v1/transactions?cursor=forged')).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await get(viewer, '/api/v1/transactions?amount=5')).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await get(viewer, `/api/v1/partners/${randomUUID()}/balances`)).toMatchObject({ status: 404, body: { code: 'CON_4008' } });
    expect(await stand.call('GET', '/api/v1/transactions')).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    expect(await stand.call('GET', '/api/v1/ledger-check')).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
  });

  test('when the wallet does not answer, then the console answers 503 PKC_7003 rather than an empty list or a passing check', async () => {
    const away = await startConsoleStand('backoffice_money_reads_away', { auth: stand.auth });
    try {
      const person = await away.signedInOperator('Away Viewer', ['viewer']);
      expect(await away.call('GET', '/api/v1/transactions', { cookie: person.cookie })).toMatchObject({ status: 503, body: { code: 'PKC_7003' } });
      expect(await away.call('GET', '/api/v1/ledger-check', { cookie: person.cookie })).toMatchObject({ status: 503, body: { code: 'PKC_7003' } });
      expect(await away.call('GET', `/api/v1/partners/${partnerId}/balances`, { cookie: person.cookie })).toMatchObject({ status: 503, body: { code: 'PKC_7003' } });
    } finally {
      await away.stop();
    }
  });
});
