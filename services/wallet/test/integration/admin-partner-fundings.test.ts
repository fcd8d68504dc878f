import { randomUUID } from 'node:crypto';
import { walletAdminPaths, walletPartnerFundingAnswerSchema } from '@pwa/contracts';
import type { Currency } from '@pwa/money';
import {
  balanceOfPartner,
  balanceOfSystemAccount,
  createTestPartner,
  expectLedgerInvariantsHold,
  getJson,
  postJson,
  postingCountOf,
  startWalletHarness,
  type HttpAnswer,
  type WalletHarness,
} from './wallet-harness';

/**
 * POST /internal/admin/partner-fundings: the back-office's approved four-eyes funding and its
 * correction (decision 0062), through the real route against the real Postgres ledger.
 */
let harness: WalletHarness;

beforeAll(async () => {
  harness = await startWalletHarness();
});

afterAll(async () => {
  await expectLedgerInvariantsHold(harness);
  await harness.stop();
});

interface FundingBody {
  transferId: string;
  partnerId: string;
  currency: Currency;
  amountMinor: string;
  direction: 'credit' | 'debit';
  reference: string;
  actor: { operatorId: string; displayName: string };
  approval: { requestId: string; makerId: string; checkerId: string };
}

/** An approved funding as the back-office sends it: a fresh approval request id as the transfer id, a maker and a different checker who executes it. */
function fundingBody(fields: Partial<FundingBody> & { partnerId: string }): FundingBody {
  const transferId = fields.transferId ?? randomUUID();
  const makerId = randomUUID();
  const checkerId = randomUUID();
  return {
    transferId,
    currency: 'USD',
    amountMinor: '2500000',
    direction: 'credit',
    reference: 'bank transfer 2026-11-27, Ecobank ref 88123',
    actor: { operatorId: checkerId, displayName: 'Checker Kollie' },
    approval: { requestId: transferId, makerId, checkerId },
    ...fields,
  };
}

function postFunding(body: unknown): Promise<HttpAnswer> {
  return postJson(`${harness.baseUrl}${walletAdminPaths.partnerFundings}`, body);
}

interface Snapshot {
  partnerMinor: bigint;
  fundingMinor: bigint;
  transfers: number;
  entries: number;
  operatorFundings: number;
}

/** What a refusal must leave as it was: the partner's and the funding account's balances, and the counts of postings, entries and who-and-why records of the whole ledger. */
async function snapshot(partnerId: string, currency: Currency = 'USD'): Promise<Snapshot> {
  const counts = await harness.sql.query<{ transfers: number; entries: number; records: number }>(
    'SELECT (SELECT count(*) FROM transfers)::int AS transfers, (SELECT count(*) FROM entries)::int AS entries, (SELECT count(*) FROM operator_fundings)::int AS records',
  );
  const row = counts.rows[0];
  if (!row) throw new Error('the counts query returned no row');
  return {
    partnerMinor: await balanceOfPartner(harness, partnerId, currency),
    fundingMinor: await balanceOfSystemAccount(harness, 'funding', currency),
    transfers: row.transfers,
    entries: row.entries,
    operatorFundings: row.records,
  };
}

async function operatorFundingRow(transferId: string): Promise<Record<string, unknown> | undefined> {
  const result = await harness.sql.query('SELECT direction, operator_id, operator_name, maker_id, checker_id, reference, recorded_at FROM operator_fundings WHERE transfer_id = $1', [transferId]);
  return result.rows[0] as Record<string, unknown> | undefined;
}

async function ledgerIsConsistent(): Promise<void> {
  const answer = await getJson(`${harness.baseUrl}/internal/ledger/invariants`);
  expect(answer.body).toMatchObject({ ok: true, problems: [] });
}

describe('POST /internal/admin/partner-fundings, credit (an approved partner.fund)', () => {
  it('when an approved funding arrives, then the partner gains and the funding account loses the amount to the cent, and the answer names the posting', async () => {
    const partnerId = await createTestPartner(harness, { USD: 1_000_000n });
    const fundingBefore = await balanceOfSystemAccount(harness, 'funding', 'USD');
    const body = fundingBody({ partnerId, amountMinor: '2500037' });

    const answer = await postFunding(body);

    expect(answer.status).toBe(200);
    expect(walletPartnerFundingAnswerSchema.safeParse(answer.body).success).toBe(true);
    expect(answer.body).toEqual({ transferId: body.transferId, transactionId: expect.stringMatching(/^TXN-[0-9A-F]{16}$/), state: 'posted', replayed: false, partnerBalanceMinor: '3500037' });
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(3_500_037n);
    expect(await balanceOfSystemAccount(harness, 'funding', 'USD')).toBe(fundingBefore - 2_500_037n);
    expect(await postingCountOf(harness, body.transferId)).toEqual({ transfers: 1, entries: 2 });
    const transfer = await harness.sql.query('SELECT kind, partner_id, user_id, currency, amount_minor, fee_minor, reference, transaction_id FROM transfers WHERE transfer_id = $1', [body.transferId]);
    expect(transfer.rows[0]).toEqual({
      kind: 'funding',
      partner_id: partnerId,
      user_id: null,
      currency: 'USD',
      amount_minor: '2500037',
      fee_minor: '0',
      reference: body.reference,
      transaction_id: answer.body.transactionId,
    });
    await ledgerIsConsistent();
  });

  it('when a funding is executed, then its operator_fundings row names the operator who executed it, the maker, the checker, the direction and the reference', async () => {
    const partnerId = await createTestPartner(harness);
    const body = fundingBody({ partnerId, currency: 'LRD', amountMinor: '150000' });

    expect((await postFunding(body)).status).toBe(200);

    expect(await operatorFundingRow(body.transferId)).toEqual({
      direction: 'credit',
      operator_id: body.actor.operatorId,
      operator_name: 'Checker Kollie',
      maker_id: body.approval.makerId,
      checker_id: body.approval.checkerId,
      reference: body.reference,
      recorded_at: expect.any(Date),
    });
    expect(body.approval.makerId).not.toBe(body.approval.checkerId);
    expect(await balanceOfPartner(harness, partnerId, 'LRD')).toBe(150_000n);
  });

  it('when the same approved funding is sent again, then it answers replayed with the same transactionId and moves nothing', async () => {
    const partnerId = await createTestPartner(harness);
    const body = fundingBody({ partnerId, amountMinor: '10000' });
    const first = await postFunding(body);
    const afterFirst = await snapshot(partnerId);

    const again = await postFunding(body);

    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, replayed: true });
    expect(await snapshot(partnerId)).toEqual(afterFirst);
    expect(await postingCountOf(harness, body.transferId)).toEqual({ transfers: 1, entries: 2 });
  });

  it('when the same approved funding is sent 10 times at once, then it posts once and every answer names the one posting', async () => {
    const partnerId = await createTestPartner(harness, { USD: 500n });
    const fundingBefore = await balanceOfSystemAccount(harness, 'funding', 'USD');
    const body = fundingBody({ partnerId, amountMinor: '777777' });

    const answers = await Promise.all(Array.from({ length: 10 }, () => postFunding(body)));

    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(new Set(answers.map((answer) => answer.body.transactionId)).size).toBe(1);
    expect(answers.filter((answer) => answer.body.replayed === false)).toHaveLength(1);
    expect(answers.filter((answer) => answer.body.replayed === true)).toHaveLength(9);
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(778_277n);
    expect(await balanceOfSystemAccount(harness, 'funding', 'USD')).toBe(fundingBefore - 777_777n);
    expect(await postingCountOf(harness, body.transferId)).toEqual({ transfers: 1, entries: 2 });
    expect((await harness.sql.query('SELECT 1 FROM operator_fundings WHERE transfer_id = $1', [body.transferId])).rowCount).toBe(1);
    await ledgerIsConsistent();
  });

  it.each([
    ['another amount', { amountMinor: '10001' }],
    ['another currency', { currency: 'LRD' as const }],
    ['another direction', { direction: 'debit' as const, amountMinor: '100' }],
  ])('when the transfer id of a posted funding comes again with %s, then it is 409 PKC_6001 and nothing moves', async (_label, change) => {
    const partnerId = await createTestPartner(harness, { USD: 50_000n, LRD: 50_000n });
    const body = fundingBody({ partnerId, amountMinor: '10000' });
    expect((await postFunding(body)).status).toBe(200);
    const before = await snapshot(partnerId, 'USD');
    const lrdBefore = await balanceOfPartner(harness, partnerId, 'LRD');

    const answer = await postFunding({ ...body, ...change });

    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ success: false, code: 'PKC_6001', message: expect.stringContaining('was used for another funding') });
    expect(await snapshot(partnerId, 'USD')).toEqual(before);
    expect(await balanceOfPartner(harness, partnerId, 'LRD')).toBe(lrdBefore);
  });

  it('when the transfer id of a posted funding comes again for another partner, then it is 409 PKC_6001 and neither partner gains', async () => {
    const partnerId = await createTestPartner(harness);
    const otherPartnerId = await createTestPartner(harness);
    const body = fundingBody({ partnerId, amountMinor: '10000' });
    expect((await postFunding(body)).status).toBe(200);
    const before = await snapshot(partnerId);

    const answer = await postFunding({ ...body, partnerId: otherPartnerId });

    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('PKC_6001');
    expect(await snapshot(partnerId)).toEqual(before);
    expect(await balanceOfPartner(harness, otherPartnerId, 'USD')).toBe(0n);
  });

  it('when the transfer id was already used by a funding not executed through this route, then it is 409 PKC_6001 and nothing moves', async () => {
    const partnerId = await createTestPartner(harness, { USD: 10_000n });
    const taken = await harness.sql.query<{ transfer_id: string }>("SELECT transfer_id FROM transfers WHERE partner_id = $1 AND kind = 'funding'", [partnerId]);
    const transferId = taken.rows[0]?.transfer_id ?? '';
    const before = await snapshot(partnerId);

    const answer = await postFunding(fundingBody({ partnerId, transferId, amountMinor: '10000' }));

    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('PKC_6001');
    expect(await snapshot(partnerId)).toEqual(before);
  });
});

describe('POST /internal/admin/partner-fundings, debit (an approved partner.funding.correct)', () => {
  it('when an approved correction arrives, then a new opposite posting moves the money back to the cent and the funding is left as it was', async () => {
    const partnerId = await createTestPartner(harness);
    const funding = fundingBody({ partnerId, amountMinor: '1000000' });
    expect((await postFunding(funding)).status).toBe(200);
    const fundingAccountBefore = await balanceOfSystemAccount(harness, 'funding', 'USD');
    const correction = fundingBody({ partnerId, amountMinor: '400001', direction: 'debit', reference: 'funding of 27 Nov counted twice' });

    const answer = await postFunding(correction);

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ transferId: correction.transferId, state: 'posted', replayed: false, partnerBalanceMinor: '599999' });
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(599_999n);
    expect(await balanceOfSystemAccount(harness, 'funding', 'USD')).toBe(fundingAccountBefore + 400_001n);
    const kinds = await harness.sql.query('SELECT transfer_id, kind, amount_minor FROM transfers WHERE transfer_id = ANY($1::uuid[]) ORDER BY kind', [[funding.transferId, correction.transferId]]);
    expect(kinds.rows).toEqual([
      { transfer_id: funding.transferId, kind: 'funding', amount_minor: '1000000' },
      { transfer_id: correction.transferId, kind: 'funding_correction', amount_minor: '400001' },
    ]);
    expect(await operatorFundingRow(correction.transferId)).toMatchObject({
      direction: 'debit',
      operator_id: correction.actor.operatorId,
      maker_id: correction.approval.makerId,
      checker_id: correction.approval.checkerId,
      reference: 'funding of 27 Nov counted twice',
    });
    await ledgerIsConsistent();
  });

  it("when a correction is posted, then the partner's statement shows it as a funding line of minus the amount", async () => {
    const partnerId = await createTestPartner(harness);
    expect((await postFunding(fundingBody({ partnerId, amountMinor: '10000' }))).status).toBe(200);
    expect((await postFunding(fundingBody({ partnerId, amountMinor: '2550', direction: 'debit' }))).status).toBe(200);
    const hourMs = 3_600_000;
    const query = new URLSearchParams({ currency: 'USD', from: new Date(Date.now() - hourMs).toISOString(), to: new Date(Date.now() + hourMs).toISOString() });

    const statement = await getJson(`${harness.baseUrl}/partner/v1/statement?${query.toString()}`, { 'x-partner-id': partnerId });

    expect(statement.status).toBe(200);
    expect(statement.body.data.items.map((item: { type: string; amount: number; balanceAfter: number }) => [item.type, item.amount, item.balanceAfter])).toEqual([
      ['funding', 100, 100],
      ['funding', -25.5, 74.5],
    ]);
  });

  it('when a correction exceeds the partner balance in its currency, then it is 400 PKC_4002 and nothing is posted', async () => {
    const partnerId = await createTestPartner(harness, { USD: 5_000n, LRD: 900_000n });
    const body = fundingBody({ partnerId, amountMinor: '5001', direction: 'debit' });
    const before = await snapshot(partnerId);

    const answer = await postFunding(body);

    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, code: 'PKC_4002', message: expect.stringContaining('nothing was posted') });
    expect(await snapshot(partnerId)).toEqual(before);
    expect(await postingCountOf(harness, body.transferId)).toEqual({ transfers: 0, entries: 0 });
    expect(await operatorFundingRow(body.transferId)).toBeUndefined();
  });

  it('when a correction names a partner with no account in the currency, then it is 400 PKC_4002, nothing is posted and no account is opened', async () => {
    const partnerId = randomUUID();
    const body = fundingBody({ partnerId, amountMinor: '1', direction: 'debit' });

    const answer = await postFunding(body);

    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('PKC_4002');
    expect((await harness.sql.query('SELECT 1 FROM ledger_accounts WHERE partner_id = $1', [partnerId])).rowCount).toBe(0);
    expect(await postingCountOf(harness, body.transferId)).toEqual({ transfers: 0, entries: 0 });
  });

  it('when the same correction of the whole balance is sent 10 times at once, then it posts once and the others answer replayed, not a balance refusal', async () => {
    const partnerId = await createTestPartner(harness, { USD: 30_000n });
    const body = fundingBody({ partnerId, amountMinor: '30000', direction: 'debit' });

    const answers = await Promise.all(Array.from({ length: 10 }, () => postFunding(body)));

    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(answers.filter((answer) => answer.body.replayed === false)).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.body.transactionId)).size).toBe(1);
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(0n);
    expect(await postingCountOf(harness, body.transferId)).toEqual({ transfers: 1, entries: 2 });
    await ledgerIsConsistent();
  });
});

describe('POST /internal/admin/partner-fundings without the person or the approval', () => {
  it.each([
    ['no actor', (body: FundingBody) => ({ ...body, actor: undefined }), 'actor'],
    ['no approval', (body: FundingBody) => ({ ...body, approval: undefined }), 'approval'],
    ['an actor without a display name', (body: FundingBody) => ({ ...body, actor: { operatorId: body.actor.operatorId } }), 'actor.displayName'],
    ['an approval without a checker', (body: FundingBody) => ({ ...body, approval: { requestId: body.transferId, makerId: body.approval.makerId } }), 'approval.checkerId'],
    ['an amount of zero', (body: FundingBody) => ({ ...body, amountMinor: '0' }), 'amountMinor'],
    ['an amount as a JSON number', (body: FundingBody) => ({ ...body, amountMinor: 100 }), 'amountMinor'],
    ['an amount of 17 digits', (body: FundingBody) => ({ ...body, amountMinor: '10000000000000000' }), 'amountMinor'],
    ['a field the contract does not name', (body: FundingBody) => ({ ...body, force: true }), 'body'],
    ['an empty reference', (body: FundingBody) => ({ ...body, reference: '' }), 'reference'],
  ])('when the body has %s, then it is 400 PKC_2008 naming the field and nothing is posted', async (_label, change, field) => {
    const partnerId = await createTestPartner(harness, { USD: 10_000n });
    const body = fundingBody({ partnerId });
    const before = await snapshot(partnerId);

    const answer = await postFunding(change(body));

    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, code: 'PKC_2008', message: expect.stringContaining(`${field}:`) });
    expect(await snapshot(partnerId)).toEqual(before);
  });

  it('when the maker is the checker, then it is 403 PKC_6005 saying so and nothing is posted', async () => {
    const partnerId = await createTestPartner(harness);
    const operatorId = randomUUID();
    const transferId = randomUUID();
    const body = fundingBody({ partnerId, transferId, actor: { operatorId, displayName: 'Solo Operator' }, approval: { requestId: transferId, makerId: operatorId, checkerId: operatorId } });
    const before = await snapshot(partnerId);

    const answer = await postFunding(body);

    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ success: false, code: 'PKC_6005', message: expect.stringContaining('approval.makerId equals approval.checkerId') });
    expect(await snapshot(partnerId)).toEqual(before);
  });

  it('when the maker and the checker are the same id written in other cases, then it is still 403 PKC_6005', async () => {
    const partnerId = await createTestPartner(harness);
    const operatorId = randomUUID();
    const transferId = randomUUID();
    const body = fundingBody({ partnerId, transferId, approval: { requestId: transferId, makerId: operatorId, checkerId: operatorId.toUpperCase() } });

    const answer = await postFunding(body);

    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('PKC_6005');
    expect(await postingCountOf(harness, transferId)).toEqual({ transfers: 0, entries: 0 });
  });

  it('when the acting person is not the approval’s checker, then it is 403 PKC_6005 saying so and nothing is posted', async () => {
    const partnerId = await createTestPartner(harness);
    const body = fundingBody({ partnerId });
    const someoneElse = { ...body, actor: { operatorId: randomUUID(), displayName: 'Not The Checker' } };
    const before = await snapshot(partnerId);

    const answer = await postFunding(someoneElse);

    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ success: false, code: 'PKC_6005', message: expect.stringContaining('actor.operatorId differs from approval.checkerId') });
    expect(await snapshot(partnerId)).toEqual(before);
  });

  it('when the transfer id is not the approval request id, then it is 403 PKC_6005 saying so and nothing is posted', async () => {
    const partnerId = await createTestPartner(harness);
    const body = fundingBody({ partnerId });
    const mismatched = { ...body, approval: { ...body.approval, requestId: randomUUID() } };
    const before = await snapshot(partnerId);

    const answer = await postFunding(mismatched);

    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ success: false, code: 'PKC_6005', message: expect.stringContaining('approval.requestId differs from transferId') });
    expect(await snapshot(partnerId)).toEqual(before);
    expect(await postingCountOf(harness, mismatched.approval.requestId)).toEqual({ transfers: 0, entries: 0 });
  });
});

describe('wallet.operator_fundings in the database', () => {
  it('when a row with the maker as checker is inserted by SQL directly, then the CHECK refuses it', async () => {
    // The opening funding of a test partner is posted as the operator CLI posts one: a transfer without a record.
    const partnerId = await createTestPartner(harness, { USD: 100n });
    const transfer = await harness.sql.query<{ transfer_id: string }>("SELECT transfer_id FROM transfers WHERE partner_id = $1 AND kind = 'funding'", [partnerId]);
    const operatorId = randomUUID();

    await expect(
      harness.sql.query(
        "INSERT INTO operator_fundings (transfer_id, direction, operator_id, operator_name, maker_id, checker_id, reference) VALUES ($1, 'credit', $2, 'Solo', $2, $2, 'own approval')",
        [transfer.rows[0]?.transfer_id, operatorId],
      ),
    ).rejects.toMatchObject({ code: '23514', constraint: 'operator_fundings_four_eyes' });
    expect(await operatorFundingRow(transfer.rows[0]?.transfer_id ?? '')).toBeUndefined();
  });

  it('when a row is changed or deleted by SQL directly, then the database refuses it', async () => {
    const partnerId = await createTestPartner(harness);
    const body = fundingBody({ partnerId, amountMinor: '100' });
    expect((await postFunding(body)).status).toBe(200);

    await expect(harness.sql.query('UPDATE operator_fundings SET checker_id = maker_id WHERE transfer_id = $1', [body.transferId])).rejects.toMatchObject({ code: '23514' });
    await expect(harness.sql.query('DELETE FROM operator_fundings WHERE transfer_id = $1', [body.transferId])).rejects.toMatchObject({ code: '23514' });
    expect(await operatorFundingRow(body.transferId)).toMatchObject({ maker_id: body.approval.makerId, checker_id: body.approval.checkerId });
  });
});
