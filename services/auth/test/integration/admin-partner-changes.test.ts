import { randomUUID } from 'node:crypto';
import { onboardPartner } from '../../src/use-cases/manage-partners';
import { postJson, startAuthHarness, type AuthHarness } from './auth-harness';

/**
 * Auth's admin route for a partner's status, permissions and rate limit (decision 0069), and its
 * reads for the console: the same approved request sent by several executors at once changes the
 * partner once and publishes one partner.updated.
 */
let harness: AuthHarness;

beforeAll(async () => {
  harness = await startAuthHarness();
});

afterAll(async () => {
  await harness.stop();
});

const actor = { operatorId: randomUUID(), displayName: 'Checker Kollie' };
const makerId = randomUUID();

async function newPartner(name: string): Promise<string> {
  const partner = await onboardPartner(harness.service.pool, harness.config.ENVIRONMENT, harness.webhookSecretSealingKey, { name, permissions: ['collection', 'disbursement'], status: 'active', rateLimitPerMinute: null, webhookUrl: null });
  return partner.partnerId;
}

async function updatedEvents(partnerId: string): Promise<number> {
  const rows = await harness.service.pool.query<{ count: string }>(`SELECT count(*) FROM outbox WHERE routing_key = 'partner.updated' AND payload->'data'->>'partnerId' = $1`, [partnerId]);
  return Number(rows.rows[0]?.count);
}

describe('auth admin partner changes', () => {
  it('when five executors send the same approved suspension at once, then the partner is suspended once, one partner.updated is published and the record names who and which approval', async () => {
    const partnerId = await newPartner('Concurrent Partner');
    const requestId = randomUUID();
    const body = { requestId, partnerId, change: { status: 'suspended' }, reason: 'chargebacks', actor, approval: { requestId, makerId, checkerId: actor.operatorId } };
    const answers = await Promise.all(Array.from({ length: 5 }, () => postJson(`${harness.baseUrl}/internal/admin/partner-changes`, body)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((answer) => answer.body.replayed === false)).toHaveLength(1);
    expect(answers[0]?.body).toMatchObject({ before: { status: 'active' }, after: { status: 'suspended' } });
    expect(await updatedEvents(partnerId)).toBe(1);
    const records = await harness.service.pool.query(`SELECT action, target, operator_id, operator_name, maker_id, checker_id FROM operator_changes WHERE request_id = $1`, [requestId]);
    expect(records.rows).toEqual([{ action: 'partner.status.set', target: partnerId, operator_id: actor.operatorId, operator_name: 'Checker Kollie', maker_id: makerId, checker_id: actor.operatorId }]);
  });

  it('when the console reads partners, then it gets pages by keyset and a partner with its approved changes, never a secret or a hash', async () => {
    const marker = `Console${randomUUID().slice(0, 6)}`;
    const ids = [await newPartner(`${marker} One`), await newPartner(`${marker} Two`), await newPartner(`${marker} Three`)];
    const first = await fetch(`${harness.baseUrl}/internal/admin/partners?q=${marker}&pageSize=2`).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
    expect(first.status).toBe(200);
    expect(first.body.partners.map((partner: { partnerId: string }) => partner.partnerId)).toEqual([ids[2], ids[1]]);
    const next = new URLSearchParams({ q: marker, pageSize: '2', afterCreatedAt: first.body.next.createdAt, afterId: first.body.next.id });
    const second = await fetch(`${harness.baseUrl}/internal/admin/partners?${next.toString()}`).then((response) => response.json());
    expect(second).toMatchObject({ partners: [{ partnerId: ids[0] }], next: null });
    expect(JSON.stringify(first.body)).not.toMatch(/secret|hash/i);
    const unknown = await fetch(`${harness.baseUrl}/internal/admin/partners/${randomUUID()}`);
    expect(unknown.status).toBe(404);
    const malformed = await fetch(`${harness.baseUrl}/internal/admin/partners?pageSize=0`);
    expect(malformed.status).toBe(400);
  });
});
