import { randomUUID } from 'node:crypto';
import {
  balanceOfPartner,
  balanceOfWallet,
  createTestPartner,
  createTestUser,
  expectLedgerInvariantsHold,
  postJson,
  startWalletHarness,
  transferBody,
  type WalletHarness,
} from './wallet-harness';

/**
 * The wallet's admin routes for reversals and tier limits (decision 0069), against the real
 * ledger: the same approved request sent by several executors at once applies once.
 */
let harness: WalletHarness;

beforeAll(async () => {
  harness = await startWalletHarness();
});

afterAll(async () => {
  await expectLedgerInvariantsHold(harness);
  await harness.stop();
});

const actor = { operatorId: randomUUID(), displayName: 'Checker Kollie' };
const makerId = randomUUID();
const approvalOf = (requestId: string) => ({ requestId, makerId, checkerId: actor.operatorId });

describe('wallet admin changes', () => {
  it('when five executors send the same approved reversal at once, then it posts once, the others answer replayed, and the record names the person and the approval', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 0n } });
    const partnerId = await createTestPartner(harness, { LRD: 9_000n });
    const referenceId = `PKD-1718000000000-${randomUUID().replace(/-/g, '').slice(0, 24).toUpperCase()}`;
    expect((await postJson(`${harness.baseUrl}/internal/transfers`, { ...transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'LRD', amountMinor: '4000', feeMinor: '100' }), referenceId })).status).toBe(200);
    const before = await fetch(`${harness.baseUrl}/internal/admin/disbursements/${referenceId}`).then((response) => response.json());
    expect(before).toMatchObject({ referenceId, partnerId, currency: 'LRD', amountMinor: '4000', reversalTransactionId: null });
    const requestId = randomUUID();
    const body = { requestId, referenceId, reason: 'wrong number', actor, approval: approvalOf(requestId) };
    const answers = await Promise.all(Array.from({ length: 5 }, () => postJson(`${harness.baseUrl}/internal/admin/disbursement-reversals`, body)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((answer) => answer.body.replayed === false)).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.body.reversalTransactionId)).size).toBe(1);
    expect(answers.map((answer) => answer.body.partnerBalanceMinor)).toEqual(Array(5).fill('8900'));
    expect(await balanceOfWallet(harness, user.phone, 'LRD')).toBe(0n);
    expect(await balanceOfPartner(harness, partnerId, 'LRD')).toBe(8_900n);
    const recorded = await harness.sql.query(`SELECT operator, operator_id, maker_id, checker_id FROM operator_reversals WHERE reversal_transfer_id = $1`, [requestId]);
    expect(recorded.rows).toEqual([{ operator: 'Checker Kollie', operator_id: actor.operatorId, maker_id: makerId, checker_id: actor.operatorId }]);
    const after = await fetch(`${harness.baseUrl}/internal/admin/disbursements/${referenceId}`).then((response) => response.json());
    expect(after).toMatchObject({ reversalTransactionId: answers[0]?.body.reversalTransactionId });
    expect((await fetch(`${harness.baseUrl}/internal/admin/disbursements/PKD-1718000000000-NOSUCHDISBURSEMENT00000`)).status).toBe(404);

    // A second approval for the same disbursement is refused for good, moving nothing.
    const secondId = randomUUID();
    expect(await postJson(`${harness.baseUrl}/internal/admin/disbursement-reversals`, { ...body, requestId: secondId, approval: approvalOf(secondId) })).toMatchObject({ status: 409, body: { code: 'PKC_6004' } });
    expect(await balanceOfPartner(harness, partnerId, 'LRD')).toBe(8_900n);
  });

  it('when five executors send the same approved tier limit change at once, then it applies once with one record, and a tier without limits needs all seven', async () => {
    const requestId = randomUUID();
    const body = { requestId, tier: 'Silver', transactionType: 'collection', currency: 'LRD', limits: { dailyMaxMinor: '7777700' }, reason: 'regulator letter 12', actor, approval: approvalOf(requestId) };
    const answers = await Promise.all(Array.from({ length: 5 }, () => postJson(`${harness.baseUrl}/internal/admin/tier-limits`, body)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((answer) => answer.body.replayed === false)).toHaveLength(1);
    expect(answers[0]?.body.after).toMatchObject({ dailyMaxMinor: '7777700' });
    const records = await harness.sql.query(`SELECT action, target, before IS NOT NULL AS has_before FROM operator_changes WHERE request_id = $1`, [requestId]);
    expect(records.rows).toEqual([{ action: 'tier_limit.set', target: 'Silver:collection:LRD', has_before: true }]);
    const rule = await harness.sql.query(`SELECT daily_max_minor::text FROM tier_limits WHERE tier = 'Silver' AND transaction_type = 'collection' AND currency = 'LRD'`);
    expect(rule.rows).toEqual([{ daily_max_minor: '7777700' }]);

    await harness.sql.query(`DELETE FROM tier_limits WHERE tier = 'Platinum' AND transaction_type = 'disbursement' AND currency = 'LRD'`);
    const partialId = randomUUID();
    expect(
      await postJson(`${harness.baseUrl}/internal/admin/tier-limits`, { ...body, requestId: partialId, tier: 'Platinum', transactionType: 'disbursement', approval: approvalOf(partialId) }),
    ).toMatchObject({ status: 400, body: { code: 'PKC_2008' } });
    expect((await harness.sql.query(`SELECT 1 FROM operator_changes WHERE request_id = $1`, [partialId])).rowCount).toBe(0);
  });

  it('when the database owner tries to rewrite a recorded change, then the append-only trigger refuses it', async () => {
    const requestId = randomUUID();
    await postJson(`${harness.baseUrl}/internal/admin/tier-limits`, { requestId, tier: 'Basic', transactionType: 'disbursement', currency: 'USD', limits: { perDayCountMax: 9 }, reason: 'r', actor, approval: approvalOf(requestId) });
    await expect(harness.sql.query(`UPDATE operator_changes SET reason = 'edited' WHERE request_id = $1`, [requestId])).rejects.toThrow();
    await expect(harness.sql.query(`DELETE FROM operator_changes WHERE request_id = $1`, [requestId])).rejects.toThrow();
  });
});
