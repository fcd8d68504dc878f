import { randomUUID } from 'node:crypto';
import { clientSecretMatches } from '../../src/domain/client-secret';
import { findPartnerById } from '../../src/store/partner-store';
import { postJson, startAuthHarness, type AuthHarness } from './auth-harness';

/**
 * Auth's admin routes for the changes one person makes on the back-office (issue 27): onboarding
 * (the secrets answered once; the same request id sent again, even at once, creates one partner)
 * and the webhook URL (before and after, one partner.updated), each recording who.
 */
let harness: AuthHarness;

beforeAll(async () => {
  harness = await startAuthHarness();
});

afterAll(async () => {
  await harness.stop();
});

const actor = { operatorId: randomUUID(), displayName: 'Maker Kollie' };
const onboarding = (requestId: string, name: string) => ({ requestId, name, permissions: ['disbursement', 'collection'], status: 'active', rateLimitPerMinute: 600, webhookUrl: 'https://hooks.partner.example/pwa', actor });

async function outboxCount(routingKey: string, partnerId: string): Promise<number> {
  const rows = await harness.service.pool.query<{ count: string }>(`SELECT count(*) FROM outbox WHERE routing_key = $1 AND payload->'data'->>'partnerId' = $2`, [routingKey, partnerId]);
  return Number(rows.rows[0]?.count);
}

describe('auth admin partner actions', () => {
  it('when five calls onboard with the same request id at once, then one partner is created, one answer carries the secrets and the others are replays without them', async () => {
    const requestId = randomUUID();
    const name = `Onboarded ${requestId.slice(0, 6)}`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => postJson(`${harness.baseUrl}/internal/admin/partner-onboardings`, onboarding(requestId, name))));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    const created = answers.filter((answer) => answer.body.replayed === false);
    expect(created).toHaveLength(1);
    const first = created[0]?.body;
    expect(first.partner).toMatchObject({ name, status: 'active', permissions: ['collection', 'disbursement'], rateLimitPerMinute: 600, webhookUrl: 'https://hooks.partner.example/pwa' });
    expect(first.clientSecret).toMatch(/^pwsk_/);
    expect(first.webhookSecret).toMatch(/^whsec_/);
    for (const replay of answers.filter((answer) => answer.body.replayed === true)) expect(replay.body).toMatchObject({ partner: { partnerId: first.partner.partnerId }, clientSecret: null, webhookSecret: null });
    const partners = await harness.service.pool.query(`SELECT partner_id FROM partners WHERE name = $1`, [name]);
    expect(partners.rows).toHaveLength(1);
    const stored = await findPartnerById(harness.service.pool, first.partner.partnerId);
    expect(await clientSecretMatches(stored?.clientSecretHash ?? '', first.clientSecret)).toBe(true);
    expect(await outboxCount('partner.created', first.partner.partnerId)).toBe(1);
    const record = await harness.service.pool.query(`SELECT action, partner_id, operator_id, operator_name, after FROM operator_actions WHERE request_id = $1`, [requestId]);
    expect(record.rows).toEqual([{ action: 'partner.onboard', partner_id: first.partner.partnerId, operator_id: actor.operatorId, operator_name: 'Maker Kollie', after: expect.objectContaining({ name, clientId: first.partner.clientId }) }]);
    expect(JSON.stringify(record.rows)).not.toMatch(/pwsk_|whsec_|hash/);
    await expect(harness.service.pool.query(`UPDATE operator_actions SET operator_name = 'Someone Else' WHERE request_id = $1`, [requestId])).rejects.toThrow(/append-only/);
  });

  it('when the request id comes back with other settings, without the person, or with a URL auth does not accept, then it is refused and nothing is created', async () => {
    const requestId = randomUUID();
    expect((await postJson(`${harness.baseUrl}/internal/admin/partner-onboardings`, onboarding(requestId, 'First Name'))).status).toBe(200);
    expect(await postJson(`${harness.baseUrl}/internal/admin/partner-onboardings`, onboarding(requestId, 'Other Name'))).toMatchObject({ status: 409, body: { code: 'PKC_6001' } });
    expect(await postJson(`${harness.baseUrl}/internal/admin/partner-onboardings`, { ...onboarding(randomUUID(), 'No Actor'), actor: undefined })).toMatchObject({ status: 400, body: { code: 'PKC_2008' } });
    const credentials = await postJson(`${harness.baseUrl}/internal/admin/partner-onboardings`, { ...onboarding(randomUUID(), 'Bad Url'), webhookUrl: 'https://user:pw@hooks.example/' });
    expect(credentials).toMatchObject({ status: 400, body: { code: 'PKC_2008' } });
    expect(credentials.body.message).toContain('webhookUrl');
    const names = await harness.service.pool.query(`SELECT name FROM partners WHERE name IN ('Other Name', 'No Actor', 'Bad Url')`);
    expect(names.rows).toEqual([]);
  });

  it('when a person sets a webhook URL, then the partner changes once with one partner.updated, the record says before and after, a replay changes nothing and the detail lists the actions', async () => {
    const created = await postJson(`${harness.baseUrl}/internal/admin/partner-onboardings`, onboarding(randomUUID(), `Url ${randomUUID().slice(0, 6)}`));
    const partnerId = created.body.partner.partnerId as string;
    const requestId = randomUUID();
    const body = { requestId, partnerId, webhookUrl: 'https://new.partner.example/hooks', actor };
    const answers = await Promise.all([postJson(`${harness.baseUrl}/internal/admin/partner-webhook-urls`, body), postJson(`${harness.baseUrl}/internal/admin/partner-webhook-urls`, body)]);
    expect(answers.map((answer) => answer.body.replayed).sort()).toEqual([false, true]);
    expect(answers[0]?.body).toMatchObject({ before: { webhookUrl: 'https://hooks.partner.example/pwa' }, after: { webhookUrl: 'https://new.partner.example/hooks' } });
    expect(await outboxCount('partner.updated', partnerId)).toBe(1);
    const removed = await postJson(`${harness.baseUrl}/internal/admin/partner-webhook-urls`, { ...body, requestId: randomUUID(), webhookUrl: null });
    expect(removed.body).toMatchObject({ replayed: false, after: { webhookUrl: null } });
    expect(await postJson(`${harness.baseUrl}/internal/admin/partner-webhook-urls`, { ...body, requestId: randomUUID(), partnerId: randomUUID() })).toMatchObject({ status: 404, body: { code: 'PKC_6002' } });
    const detail = (await fetch(`${harness.baseUrl}/internal/admin/partners/${partnerId}`).then((response) => response.json())) as { webhookUrl: string | null; operatorActions: { action: string; operatorName: string }[] };
    expect(detail.webhookUrl).toBeNull();
    expect(detail.operatorActions.map((action) => action.action)).toEqual(['partner.webhook_url.set', 'partner.webhook_url.set', 'partner.onboard']);
    expect(JSON.stringify(detail)).not.toMatch(/pwsk_|whsec_|hash/i);
  });

  it('when a person rotates a client secret with the same request id three times at once, then it is rotated once, the old secret stops matching, one answer carries the new one and the record holds no secret', async () => {
    const created = await postJson(`${harness.baseUrl}/internal/admin/partner-onboardings`, onboarding(randomUUID(), `Rotate ${randomUUID().slice(0, 6)}`));
    const partnerId = created.body.partner.partnerId as string;
    const oldSecret = created.body.clientSecret as string;
    const requestId = randomUUID();
    const body = { requestId, partnerId, secret: 'client', actor };
    const answers = await Promise.all(Array.from({ length: 3 }, () => postJson(`${harness.baseUrl}/internal/admin/partner-secret-rotations`, body)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const fresh = answers.filter((answer) => answer.body.replayed === false);
    expect(fresh).toHaveLength(1);
    const newSecret = fresh[0]?.body.clientSecret as string;
    expect(newSecret).toMatch(/^pwsk_/);
    for (const replay of answers.filter((answer) => answer.body.replayed === true)) expect(replay.body).toMatchObject({ clientSecret: null, webhookSecret: null, rotatedAt: fresh[0]?.body.rotatedAt });
    const stored = await findPartnerById(harness.service.pool, partnerId);
    expect(await clientSecretMatches(stored?.clientSecretHash ?? '', newSecret)).toBe(true);
    expect(await clientSecretMatches(stored?.clientSecretHash ?? '', oldSecret)).toBe(false);
    expect(await outboxCount('partner.secret_rotated', partnerId)).toBe(1);
    const record = await harness.service.pool.query(`SELECT action, operator_name, parameters, before, after FROM operator_actions WHERE request_id = $1`, [requestId]);
    expect(record.rows).toEqual([{ action: 'partner.client_secret.rotate', operator_name: 'Maker Kollie', parameters: { secret: 'client', overlapHours: null }, before: null, after: expect.objectContaining({ clientId: created.body.partner.clientId }) }]);
    expect(JSON.stringify(record.rows)).not.toMatch(/pwsk_|whsec_|hash/);
    // Another rotation under the id, an overlap for a client secret, an unknown partner: refused, nothing rotated.
    expect(await postJson(`${harness.baseUrl}/internal/admin/partner-secret-rotations`, { ...body, secret: 'webhook' })).toMatchObject({ status: 409, body: { code: 'PKC_6001' } });
    expect(await postJson(`${harness.baseUrl}/internal/admin/partner-secret-rotations`, { ...body, requestId: randomUUID(), overlapHours: 1 })).toMatchObject({ status: 400, body: { code: 'PKC_2008' } });
    expect(await postJson(`${harness.baseUrl}/internal/admin/partner-secret-rotations`, { ...body, requestId: randomUUID(), partnerId: randomUUID() })).toMatchObject({ status: 404, body: { code: 'PKC_6002' } });
    expect(await outboxCount('partner.secret_rotated', partnerId)).toBe(1);
  });

  it('when a person rotates a webhook secret with an overlap, then a new secret is issued once, the previous ones end after the overlap, and the detail lists the rotation without a secret', async () => {
    const created = await postJson(`${harness.baseUrl}/internal/admin/partner-onboardings`, onboarding(randomUUID(), `Webhook ${randomUUID().slice(0, 6)}`));
    const partnerId = created.body.partner.partnerId as string;
    const requestId = randomUUID();
    const before = Date.now();
    const rotated = await postJson(`${harness.baseUrl}/internal/admin/partner-secret-rotations`, { requestId, partnerId, secret: 'webhook', overlapHours: 2, actor });
    expect(rotated).toMatchObject({ status: 200, body: { replayed: false, secret: 'webhook', clientSecret: null, webhookSecret: expect.stringMatching(/^whsec_/) } });
    const endsMs = Date.parse(String(rotated.body.previousSecretsValidUntil));
    expect(endsMs).toBeGreaterThanOrEqual(before + 2 * 3_600_000 - 60_000);
    expect(endsMs).toBeLessThanOrEqual(Date.now() + 2 * 3_600_000 + 60_000);
    const replay = await postJson(`${harness.baseUrl}/internal/admin/partner-secret-rotations`, { requestId, partnerId, secret: 'webhook', overlapHours: 2, actor });
    expect(replay.body).toMatchObject({ replayed: true, webhookSecret: null, previousSecretsValidUntil: rotated.body.previousSecretsValidUntil });
    expect(await outboxCount('partner.webhook_secret_rotated', partnerId)).toBe(1);
    const secrets = await harness.service.pool.query<{ valid_until: Date | null }>(`SELECT valid_until FROM webhook_secrets WHERE partner_id = $1 ORDER BY valid_from`, [partnerId]);
    expect(secrets.rows.map((row) => row.valid_until === null)).toEqual([false, true]);
    const detail = (await fetch(`${harness.baseUrl}/internal/admin/partners/${partnerId}`).then((response) => response.json())) as { operatorActions: { action: string }[] };
    expect(detail.operatorActions.map((action) => action.action)).toEqual(['partner.webhook_secret.rotate', 'partner.onboard']);
    expect(JSON.stringify(detail)).not.toMatch(/pwsk_|whsec_|hash/i);
  });
});
