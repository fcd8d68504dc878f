import { randomUUID } from 'node:crypto';
import { startWebhooksHarness, type WebhooksHarness } from './webhooks-harness';

/**
 * The back-office's admin routes of the webhooks service (issue 27): the backlog and the dead
 * letters across partners in keyset pages, with attempts and the last outcome and never the body;
 * a redelivery by a named person. Rows are placed in each state directly (next attempts far ahead,
 * so the worker leaves them alone) against the real Postgres.
 */
let harness: WebhooksHarness;
const partnerA = randomUUID();
const partnerB = randomUUID();
const bodyMarker = 'BODY-NEVER-SHOWN-whsec_marker';
const ids: Record<string, string> = {};

async function insertDelivery(name: string, partnerId: string, row: { status: string; attemptCount: number; cycleAttemptCount: number; lastStatus?: number; createdAt: string }): Promise<void> {
  const deliveryId = randomUUID();
  ids[name] = deliveryId;
  const pending = row.status === 'pending';
  await harness.pool.query(
    `INSERT INTO deliveries (delivery_id, event_id, partner_id, event_type, reference_id, body, status, attempt_count, cycle_attempt_count, next_attempt_at, last_error, created_at, failed_at)
     VALUES ($1, $2, $3, 'collection.completed', $4, $5, $6, $7, $8, CASE WHEN $9 THEN now() + interval '1 hour' END, $10, $11, CASE WHEN $6 = 'failed' THEN now() END)`,
    [deliveryId, randomUUID(), partnerId, `PKC-${name.toUpperCase()}`, JSON.stringify({ marker: bodyMarker }), row.status, row.attemptCount, row.cycleAttemptCount, pending, row.lastStatus === undefined ? null : `HTTP ${row.lastStatus}`, row.createdAt],
  );
  for (let attempt = 1; attempt <= row.attemptCount; attempt += 1) {
    await harness.pool.query(`INSERT INTO delivery_attempts (delivery_id, attempt_number, started_at, outcome, status_code, latency_ms, error) VALUES ($1, $2, now(), 'failed', $3, 12, $4)`, [
      deliveryId,
      attempt,
      row.lastStatus ?? null,
      row.lastStatus === undefined ? 'timeout' : `HTTP ${row.lastStatus}`,
    ]);
  }
}

async function get(path: string): Promise<{ status: number; body: any; text: string }> {
  const response = await fetch(`${harness.baseUrl()}${path}`);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text };
}

async function post(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${harness.baseUrl()}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  harness = await startWebhooksHarness();
  await insertDelivery('fresh', partnerA, { status: 'pending', attemptCount: 0, cycleAttemptCount: 0, createdAt: '2026-11-01T10:00:00.001Z' });
  await insertDelivery('retrying', partnerA, { status: 'pending', attemptCount: 2, cycleAttemptCount: 2, lastStatus: 503, createdAt: '2026-11-01T10:00:00.002Z' });
  await insertDelivery('dead', partnerA, { status: 'failed', attemptCount: 4, cycleAttemptCount: 4, lastStatus: 500, createdAt: '2026-11-01T10:00:00.003Z' });
  await insertDelivery('otherDead', partnerB, { status: 'failed', attemptCount: 4, cycleAttemptCount: 4, createdAt: '2026-11-01T10:00:00.004Z' });
  await insertDelivery('delivered', partnerA, { status: 'delivered', attemptCount: 1, cycleAttemptCount: 1, lastStatus: 200, createdAt: '2026-11-01T10:00:00.005Z' });
});

afterAll(async () => {
  await harness?.stop();
});

describe('webhooks admin routes', () => {
  it('when the backlog is read without a status, then pending, retrying and dead deliveries of every partner come newest first in pages, with attempts and the last outcome, never a delivered one or a body', async () => {
    const first = await get('/internal/admin/deliveries?pageSize=2');
    expect(first.status).toBe(200);
    expect(first.body.deliveries.map((delivery: { deliveryId: string }) => delivery.deliveryId)).toEqual([ids.otherDead, ids.dead]);
    const next = new URLSearchParams({ pageSize: '2', afterCreatedAt: first.body.next.createdAt, afterId: first.body.next.id });
    const second = await get(`/internal/admin/deliveries?${next.toString()}`);
    expect(second.body.deliveries.map((delivery: { deliveryId: string }) => delivery.deliveryId)).toEqual([ids.retrying, ids.fresh]);
    expect(second.body.next).toBeNull();
    expect(first.body.deliveries[1]).toMatchObject({ partnerId: partnerA, status: 'dead', deliveryState: 'failed', attemptCount: 4, lastStatusCode: 500, lastError: 'HTTP 500', nextAttemptAt: null, referenceId: 'PKC-DEAD' });
    expect(second.body.deliveries[0]).toMatchObject({ status: 'retrying', deliveryState: 'pending', attemptCount: 2, lastStatusCode: 503 });
    expect(second.body.deliveries[1]).toMatchObject({ status: 'pending', attemptCount: 0, lastStatusCode: null, lastAttemptAt: null });
    expect(first.text + second.text).not.toContain('marker');
  });

  it('when the backlog is filtered by status and partner, then only those deliveries come; a bad filter is 400 PKC_2008', async () => {
    const dead = await get(`/internal/admin/deliveries?status=dead&partnerId=${partnerA.toUpperCase()}`);
    expect(dead.body.deliveries.map((delivery: { deliveryId: string }) => delivery.deliveryId)).toEqual([ids.dead]);
    const retrying = await get('/internal/admin/deliveries?status=retrying');
    expect(retrying.body.deliveries.map((delivery: { deliveryId: string }) => delivery.deliveryId)).toEqual([ids.retrying]);
    expect((await get('/internal/admin/deliveries?status=delivered')).body).toMatchObject({ code: 'PKC_2008' });
    expect((await get('/internal/admin/deliveries?afterId=' + randomUUID())).status).toBe(400);
  });

  it('when a person redelivers a dead delivery, then it is due again at once and the person is recorded; without the person or for an unknown delivery it is refused and nothing changes', async () => {
    const actor = { operatorId: randomUUID(), displayName: 'Maker Kollie' };
    expect(await post('/internal/admin/delivery-redeliveries', { requestId: randomUUID(), deliveryId: ids.otherDead })).toMatchObject({ status: 400, body: { code: 'PKC_2008' } });
    expect((await harness.pool.query(`SELECT status FROM deliveries WHERE delivery_id = $1`, [ids.otherDead])).rows[0]).toEqual({ status: 'failed' });
    expect(await post('/internal/admin/delivery-redeliveries', { requestId: randomUUID(), deliveryId: randomUUID(), actor })).toMatchObject({ status: 404, body: { code: 'PKC_6002' } });
    const requestId = randomUUID();
    const redelivered = await post('/internal/admin/delivery-redeliveries', { requestId, deliveryId: ids.otherDead, actor });
    expect(redelivered).toMatchObject({ status: 200, body: { requestId, replayed: false, deliveryId: ids.otherDead, partnerId: partnerB, before: { deliveryState: 'failed' }, after: { deliveryState: 'pending' } } });
    expect(redelivered.body.after.nextAttemptAt).not.toBeNull();
    const recorded = await harness.pool.query(`SELECT delivery_id, partner_id, state_before, state_after, operator_id, operator_name FROM operator_redeliveries WHERE request_id = $1`, [requestId]);
    expect(recorded.rows).toEqual([{ delivery_id: ids.otherDead, partner_id: partnerB, state_before: 'failed', state_after: 'pending', operator_id: actor.operatorId, operator_name: 'Maker Kollie' }]);
    await expect(harness.pool.query(`DELETE FROM operator_redeliveries WHERE request_id = $1`, [requestId])).rejects.toThrow(/append-only/);
  });

  it('when the same redelivery request is sent several times at once, then one cycle starts, the others answer it replayed, and the request id for another delivery is 409 PKC_6001', async () => {
    const actor = { operatorId: randomUUID(), displayName: 'Admin Doe' };
    await insertDelivery('clicked', partnerB, { status: 'failed', attemptCount: 4, cycleAttemptCount: 4, lastStatus: 502, createdAt: '2026-11-01T09:00:00.000Z' });
    const requestId = randomUUID();
    const answers = await Promise.all(Array.from({ length: 4 }, () => post('/internal/admin/delivery-redeliveries', { requestId, deliveryId: ids.clicked, actor })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(answers.filter((answer) => answer.body.replayed === false)).toHaveLength(1);
    for (const answer of answers) expect(answer.body).toMatchObject({ before: { deliveryState: 'failed' }, after: { deliveryState: 'pending' } });
    expect((await harness.pool.query(`SELECT count(*)::int AS count FROM operator_redeliveries WHERE delivery_id = $1`, [ids.clicked])).rows[0]).toEqual({ count: 1 });
    expect(await post('/internal/admin/delivery-redeliveries', { requestId, deliveryId: ids.dead, actor })).toMatchObject({ status: 409, body: { code: 'PKC_6001' } });
  });
});
