import { randomUUID } from 'node:crypto';
import { startQuotesHarness, type QuotesHarness } from './quotes-harness';

/**
 * The quotes service's admin route for fee schedules (decision 0069): the same approved request
 * sent by several executors at once writes one revision, recorded with who and which approval.
 */
let harness: QuotesHarness;

beforeAll(async () => {
  harness = await startQuotesHarness();
});

afterAll(async () => {
  await harness.stop();
});

const actor = { operatorId: randomUUID(), displayName: 'Checker Kollie' };
const makerId = randomUUID();

async function post(body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${harness.baseUrl}/internal/admin/fee-schedules`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

async function revisionOf(type: string, currency: string): Promise<number> {
  const rows = await harness.database.query<{ revision: number }>(`SELECT revision FROM fee_schedules WHERE quote_type = $1 AND currency = $2`, [type, currency]);
  return rows.rows[0]?.revision ?? -1;
}

describe('quotes admin fee schedules', () => {
  it('when five executors send the same approved fee change at once, then one revision is written, recorded once, and the others answer replayed', async () => {
    const before = await revisionOf('disbursement', 'LRD');
    const requestId = randomUUID();
    const tiers = [{ upToMinor: '500000', flatMinor: '0', basisPoints: 150 }, { upToMinor: null, flatMinor: '2500', basisPoints: 100 }];
    const body = { requestId, type: 'disbursement', currency: 'LRD', tiers, reason: 'new price list', actor, approval: { requestId, makerId, checkerId: actor.operatorId } };
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(body)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((answer) => answer.body.replayed === false)).toHaveLength(1);
    expect(answers[0]?.body.after).toMatchObject({ tiers, revision: before + 1 });
    expect(await revisionOf('disbursement', 'LRD')).toBe(before + 1);
    const records = await harness.database.query(`SELECT action, target, operator_id, maker_id FROM operator_changes WHERE request_id = $1`, [requestId]);
    expect(records.rows).toEqual([{ action: 'fee_schedule.set', target: 'disbursement:LRD', operator_id: actor.operatorId, maker_id: makerId }]);
    const revisions = await harness.database.query(`SELECT 1 FROM fee_schedule_revisions WHERE quote_type = 'disbursement' AND currency = 'LRD' AND revision = $1`, [before + 1]);
    expect(revisions.rowCount).toBe(1);
  });

  it('when a schedule breaks the rules or the request id was used for another change, then it is refused and nothing is written', async () => {
    const before = await revisionOf('collection', 'LRD');
    const requestId = randomUUID();
    const approval = { requestId, makerId, checkerId: actor.operatorId };
    expect(await post({ requestId, type: 'collection', currency: 'LRD', tiers: [{ upToMinor: '100', flatMinor: '0', basisPoints: 10 }], reason: 'r', actor, approval })).toMatchObject({ status: 400, body: { code: 'PKC_2008' } });
    expect(await post({ requestId, type: 'collection', currency: 'LRD', minimumFeeMinor: '20', reason: 'r', actor, approval })).toMatchObject({ status: 200, body: { replayed: false } });
    expect(await post({ requestId, type: 'collection', currency: 'LRD', minimumFeeMinor: '21', reason: 'r', actor, approval })).toMatchObject({ status: 409, body: { code: 'PKC_6001' } });
    expect(await revisionOf('collection', 'LRD')).toBe(before + 1);
  });
});
