import { randomUUID } from 'node:crypto';
import { createCapturedLogger } from '../../../../test/support/captured-logger';
import { postJson } from '../../../auth/test/integration/auth-harness';
import { startWebhooksHarness, type WebhooksHarness } from '../../../webhooks/test/integration/webhooks-harness';
import { startConsoleStand, type ConsoleStand, type SignedInOperator } from '../support/console-stand';

/**
 * The operator's one-person partner tasks through the console's real routes, with the real auth and
 * webhooks in-process against Postgres, Redis and RabbitMQ (issue 27): onboarding (the secrets
 * shown once, to the person who created the partner, never in a read, the audit log or any log
 * line of the back-office or auth; a double submit creates one partner), the webhook URL, and the
 * webhook backlog with redelivery; each role's allowed and refused calls, refusals audited.
 */
const backofficeLog = createCapturedLogger('backoffice');
const authLog = createCapturedLogger('auth');
let webhooks: WebhooksHarness;
let stand: ConsoleStand;
let viewer: SignedInOperator;
let maker: SignedInOperator;
let checker: SignedInOperator;
let admin: SignedInOperator;
const shownSecrets: string[] = [];

beforeAll(async () => {
  webhooks = await startWebhooksHarness();
  stand = await startConsoleStand('backoffice_partner_tasks', { webhooksUrl: webhooks.baseUrl(), logger: backofficeLog.logger, authLogger: authLog.logger });
  viewer = await stand.signedInOperator('Tasks Viewer', ['viewer']);
  maker = await stand.signedInOperator('Tasks Maker', ['maker']);
  checker = await stand.signedInOperator('Tasks Checker', ['checker']);
  admin = await stand.signedInOperator('Tasks Admin', ['admin']);
});

afterAll(async () => {
  await stand?.stop();
  await webhooks?.stop();
});

/** Null sends no Idempotency-Key. */
const onboard = (person: SignedInOperator, body: unknown, key: string | null = randomUUID()) =>
  stand.call('POST', '/api/v1/partners', { cookie: person.cookie, csrf: person.csrf, body, ...(key === null ? {} : { headers: { 'idempotency-key': key } }) });

async function auditRows(action: string): Promise<{ actor_id: string; outcome: string; target_id: string; reason: string | null; before: unknown; after: unknown }[]> {
  const rows = await stand.database.pool.query(
    `SELECT actor->>'id' AS actor_id, outcome, target->>'id' AS target_id, reason, before, after FROM audit_log WHERE action = $1 ORDER BY sequence`,
    [action],
  );
  return rows.rows as never;
}

describe('onboarding a partner in the console', () => {
  test('when a maker and an admin onboard, then each gets the client id and both secrets once; the secret works at the token endpoint; reads, the audit log and the logs never show it', async () => {
    for (const person of [maker, admin]) {
      const name = `Onboarded by ${person === maker ? 'maker' : 'admin'} ${randomUUID().slice(0, 6)}`;
      const created = await onboard(person, { name, permissions: ['collection'], rateLimitPerMinute: 120, webhookUrl: 'https://hooks.partner.example/pwa' });
      expect(created.status).toBe(201);
      expect(created.headers.get('cache-control')).toContain('no-store');
      const data = created.body.data as { partner: { partnerId: string; clientId: string }; replayed: boolean; credentials: { clientId: string; clientSecret: string; webhookSecret: string } };
      expect(data).toMatchObject({ replayed: false, partner: { name, status: 'active', permissions: ['collection'], rateLimitPerMinute: 120, webhookUrl: 'https://hooks.partner.example/pwa' } });
      expect(data.credentials.clientId).toBe(data.partner.clientId);
      expect(data.credentials.clientSecret).toMatch(/^pwsk_/);
      expect(data.credentials.webhookSecret).toMatch(/^whsec_/);
      shownSecrets.push(data.credentials.clientSecret, data.credentials.webhookSecret);
      const token = await postJson(`${stand.auth.baseUrl}/partner/auth/token`, { client_id: data.credentials.clientId, client_secret: data.credentials.clientSecret });
      expect(token.status).toBe(200);

      const detail = await stand.call('GET', `/api/v1/partners/${data.partner.partnerId}`, { cookie: viewer.cookie });
      expect(detail.body.data).toMatchObject({ name, operatorActions: [expect.objectContaining({ action: 'partner.onboard', operatorId: person.operatorId, operatorName: person === maker ? 'Tasks Maker' : 'Tasks Admin' })] });
      const listed = await stand.call('GET', `/api/v1/partners?q=${data.partner.partnerId}`, { cookie: viewer.cookie });
      for (const read of [detail.text, listed.text]) for (const secret of [data.credentials.clientSecret, data.credentials.webhookSecret]) expect(read.includes(secret)).toBe(false);
      const audited = (await auditRows('partner.onboard')).filter((row) => row.target_id === data.partner.partnerId);
      expect(audited).toEqual([expect.objectContaining({ actor_id: person.operatorId, outcome: 'done', after: expect.objectContaining({ name, clientId: data.partner.clientId }) })]);
    }
    const audit = JSON.stringify((await stand.database.pool.query(`SELECT * FROM audit_log`)).rows);
    const logs = backofficeLog.text() + authLog.text();
    expect(logs).toContain('listening');
    for (const secret of shownSecrets) {
      expect({ secret: `${secret.slice(0, 8)}…`, inAudit: audit.includes(secret), inLogs: logs.includes(secret) }).toEqual({ secret: `${secret.slice(0, 8)}…`, inAudit: false, inLogs: false });
    }
  });

  test('when the console submits the same onboarding twice at once with one Idempotency-Key, then one partner is created, one answer has the secrets and the other none, and one entry is audited', async () => {
    const name = `Double click ${randomUUID().slice(0, 6)}`;
    const key = randomUUID();
    const answers = await Promise.all([onboard(maker, { name }, key), onboard(maker, { name }, key)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 201]);
    const replay = answers.find((answer) => answer.status === 200);
    const first = answers.find((answer) => answer.status === 201);
    expect(replay?.body.data).toMatchObject({ replayed: true, credentials: null, partner: { partnerId: (first?.body.data?.partner as { partnerId: string }).partnerId } });
    const again = await onboard(maker, { name }, key);
    expect(again.body.data).toMatchObject({ replayed: true, credentials: null });
    const partners = await stand.auth.service.pool.query(`SELECT partner_id FROM partners WHERE name = $1`, [name]);
    expect(partners.rows).toHaveLength(1);
    expect((await auditRows('partner.onboard')).filter((row) => row.target_id === partners.rows[0].partner_id)).toHaveLength(1);
    // The same key by another person is another request; the same key with other settings is refused.
    expect((await onboard(admin, { name }, key)).status).toBe(201);
    expect(await onboard(maker, { name: `${name} renamed` }, key)).toMatchObject({ status: 409, body: { code: 'CON_4011' } });
  });

  test('when a viewer or a checker onboards, the key is missing, or the body is wrong, then it is refused with its code, the role refusals audited, and nothing is created', async () => {
    const name = `Refused ${randomUUID().slice(0, 6)}`;
    for (const person of [viewer, checker]) expect(await onboard(person, { name })).toMatchObject({ status: 403, body: { code: 'CON_3001' } });
    const refused = (await auditRows('partner.onboard')).filter((row) => row.outcome === 'refused' && (row.after as { name?: string }).name === name);
    expect(refused.map((row) => [row.actor_id, row.reason])).toEqual([
      [viewer.operatorId, 'not-allowed'],
      [checker.operatorId, 'not-allowed'],
    ]);
    expect(await onboard(maker, { name }, null)).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await onboard(maker, { name }, 'short')).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await onboard(maker, { name, status: 'suspended' })).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await onboard(maker, { name, permissions: ['collection', 'collection'] })).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    const withCredentials = await onboard(maker, { name, webhookUrl: 'https://user:pw@hooks.partner.example/' });
    expect(withCredentials).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(withCredentials.body.message).toContain('webhookUrl');
    expect((await stand.auth.service.pool.query(`SELECT 1 FROM partners WHERE name = $1`, [name])).rows).toEqual([]);
    expect(await stand.call('POST', '/api/v1/partners', { cookie: maker.cookie, body: { name }, headers: { 'idempotency-key': randomUUID() } })).toMatchObject({ status: 403, body: { code: 'CON_1005' } });
  });
});

describe('a partner’s webhook URL in the console', () => {
  test('when a maker or an admin sets it, then auth changes it with the person recorded, the audit entry says before and after, and other roles, unknown partners and bad URLs are refused', async () => {
    const partnerId = await stand.newPartnerId(`Url partner ${randomUUID().slice(0, 6)}`);
    const put = (person: SignedInOperator, id: string, webhookUrl: unknown) => stand.call('PUT', `/api/v1/partners/${id}/webhook-url`, { cookie: person.cookie, csrf: person.csrf, body: { webhookUrl } });
    const set = await put(maker, partnerId, 'https://hooks.partner.example/first');
    expect(set).toMatchObject({ status: 200, body: { data: { partnerId, replayed: false, before: { webhookUrl: null }, after: { webhookUrl: 'https://hooks.partner.example/first' } } } });
    expect(await put(admin, partnerId, null)).toMatchObject({ status: 200, body: { data: { before: { webhookUrl: 'https://hooks.partner.example/first' }, after: { webhookUrl: null } } } });
    for (const person of [viewer, checker]) expect(await put(person, partnerId, 'https://hooks.partner.example/theirs')).toMatchObject({ status: 403, body: { code: 'CON_3001' } });
    expect(await put(maker, randomUUID(), 'https://hooks.partner.example/x')).toMatchObject({ status: 404, body: { code: 'CON_4008' } });
    expect(await put(maker, partnerId, 'ftp://hooks.partner.example/x')).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await put(maker, partnerId, 42)).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    const rows = (await auditRows('partner.webhook_url.set')).filter((row) => row.target_id === partnerId);
    expect(rows.map((row) => [row.actor_id, row.outcome, row.reason?.split(':')[0] ?? null])).toEqual([
      [maker.operatorId, 'done', null],
      [admin.operatorId, 'done', null],
      [viewer.operatorId, 'refused', 'not-allowed'],
      [checker.operatorId, 'refused', 'not-allowed'],
      [maker.operatorId, 'refused', 'not-accepted'],
    ]);
    expect(rows[0]).toMatchObject({ before: { webhookUrl: null }, after: { webhookUrl: 'https://hooks.partner.example/first' } });
    const detail = await stand.call('GET', `/api/v1/partners/${partnerId}`, { cookie: viewer.cookie });
    expect(detail.body.data).toMatchObject({ webhookUrl: null });
    expect((detail.body.data?.operatorActions as { operatorId: string }[]).map((action) => action.operatorId)).toEqual([admin.operatorId, maker.operatorId]);
  });

  test('when the page sends the same change twice with one Idempotency-Key, then the second is answered replayed and audited once; the key for another URL is 409 CON_4011', async () => {
    const partnerId = await stand.newPartnerId(`Url key partner ${randomUUID().slice(0, 6)}`);
    const key = randomUUID();
    const put = (webhookUrl: string) => stand.call('PUT', `/api/v1/partners/${partnerId}/webhook-url`, { cookie: maker.cookie, csrf: maker.csrf, body: { webhookUrl }, headers: { 'idempotency-key': key } });
    const answers = await Promise.all([put('https://hooks.partner.example/keyed'), put('https://hooks.partner.example/keyed')]);
    expect(answers.map((answer) => answer.body.data?.replayed).sort()).toEqual([false, true]);
    for (const answer of answers) expect(answer.body.data).toMatchObject({ before: { webhookUrl: null }, after: { webhookUrl: 'https://hooks.partner.example/keyed' } });
    expect((await auditRows('partner.webhook_url.set')).filter((row) => row.target_id === partnerId && row.outcome === 'done')).toHaveLength(1);
    expect(await put('https://hooks.partner.example/other')).toMatchObject({ status: 409, body: { code: 'CON_4011' } });
  });
});

describe('rotating a partner\'s secrets in the console', () => {
  const rotate = (person: SignedInOperator, partnerId: string, secret: 'client' | 'webhook', body: unknown = {}, key: string | null = randomUUID()) =>
    stand.call('POST', `/api/v1/partners/${partnerId}/${secret}-secret-rotations`, { cookie: person.cookie, csrf: person.csrf, body, ...(key === null ? {} : { headers: { 'idempotency-key': key } }) });

  test('when a maker rotates the client secret twice at once with one key, then it rotates once, the new secret is shown once and gets a token, the old one is refused, and neither the audit log nor a log line holds it', async () => {
    const created = await onboard(maker, { name: `Rotated ${randomUUID().slice(0, 6)}` });
    const { partner, credentials } = created.body.data as { partner: { partnerId: string; clientId: string }; credentials: { clientSecret: string } };
    const key = randomUUID();
    const answers = await Promise.all([rotate(maker, partner.partnerId, 'client', {}, key), rotate(maker, partner.partnerId, 'client', {}, key)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 201]);
    const fresh = answers.find((answer) => answer.status === 201)?.body.data as { clientSecret: string; clientId: string; replayed: boolean };
    const replay = answers.find((answer) => answer.status === 200)?.body.data;
    expect(fresh).toMatchObject({ replayed: false, clientId: partner.clientId, clientSecret: expect.stringMatching(/^pwsk_/) });
    expect(replay).toMatchObject({ replayed: true, clientSecret: null });
    expect((await postJson(`${stand.auth.baseUrl}/partner/auth/token`, { client_id: partner.clientId, client_secret: fresh.clientSecret })).status).toBe(200);
    expect((await postJson(`${stand.auth.baseUrl}/partner/auth/token`, { client_id: partner.clientId, client_secret: credentials.clientSecret })).status).toBe(401);
    const audited = (await auditRows('partner.client_secret.rotate')).filter((row) => row.target_id === partner.partnerId);
    expect(audited).toEqual([expect.objectContaining({ actor_id: maker.operatorId, outcome: 'done', after: expect.objectContaining({ clientId: partner.clientId }) })]);
    const audit = JSON.stringify((await stand.database.pool.query(`SELECT * FROM audit_log`)).rows);
    expect(audit.includes(fresh.clientSecret)).toBe(false);
    expect((backofficeLog.text() + authLog.text()).includes(fresh.clientSecret)).toBe(false);
    const detail = await stand.call('GET', `/api/v1/partners/${partner.partnerId}`, { cookie: viewer.cookie });
    expect((detail.body.data?.operatorActions as { action: string }[]).map((action) => action.action)).toEqual(['partner.client_secret.rotate', 'partner.onboard']);
    expect(detail.text.includes(fresh.clientSecret)).toBe(false);
  });

  test('when a maker adds a second client secret and then revokes the previous one, then both get tokens in between, only the new one after, each step audited without the secret', async () => {
    const created = await onboard(maker, { name: `Overlapped ${randomUUID().slice(0, 6)}` });
    const { partner, credentials } = created.body.data as { partner: { partnerId: string; clientId: string }; credentials: { clientSecret: string } };
    const change = (step: string, key: string = randomUUID()) => stand.call('POST', `/api/v1/partners/${partner.partnerId}/client-secret-changes`, { cookie: maker.cookie, csrf: maker.csrf, body: { step }, headers: { 'idempotency-key': key } });
    const token = async (clientSecret: string): Promise<number> => (await postJson(`${stand.auth.baseUrl}/partner/auth/token`, { client_id: partner.clientId, client_secret: clientSecret })).status;
    const added = await change('add_second');
    expect(added).toMatchObject({ status: 201, body: { data: { step: 'add_second', replayed: false, clientSecret: expect.stringMatching(/^pwsk_/), secondSince: expect.any(String) } } });
    const second = String(added.body.data?.clientSecret);
    expect([await token(credentials.clientSecret), await token(second)]).toEqual([200, 200]);
    // The partner's page says a second secret is active, and who added it (an operator, not a partner's member).
    const during = await stand.call('GET', `/api/v1/partners/${partner.partnerId}`, { cookie: viewer.cookie });
    expect(during.body.data).toMatchObject({ clientSecrets: { currentSince: expect.any(String), secondSince: added.body.data?.secondSince } });
    expect((during.body.data?.operatorActions as unknown[])[0]).toMatchObject({ action: 'partner.client_secret.add_second', operatorId: maker.operatorId, actorKind: 'operator' });
    expect(during.text.includes(second)).toBe(false);
    expect(await change('add_second')).toMatchObject({ status: 409, body: { code: 'CON_4019', message: expect.stringContaining('second client secret is held already') } });
    expect(await change('revoke_previous')).toMatchObject({ status: 200, body: { data: { step: 'revoke_previous', secondSince: null, clientSecret: null } } });
    expect([await token(credentials.clientSecret), await token(second)]).toEqual([401, 200]);
    expect((await stand.call('GET', `/api/v1/partners/${partner.partnerId}`, { cookie: viewer.cookie })).body.data?.clientSecrets).toMatchObject({ secondSince: null });
    expect(await stand.call('POST', `/api/v1/partners/${partner.partnerId}/client-secret-changes`, { cookie: checker.cookie, csrf: checker.csrf, body: { step: 'add_second' }, headers: { 'idempotency-key': randomUUID() } })).toMatchObject({ status: 403, body: { code: 'CON_3001' } });
    const audited = [...(await auditRows('partner.client_secret.add_second')), ...(await auditRows('partner.client_secret.revoke_previous'))].filter((row) => row.target_id === partner.partnerId && row.outcome === 'done');
    expect(audited).toHaveLength(2);
    expect(JSON.stringify((await stand.database.pool.query(`SELECT * FROM audit_log`)).rows).includes(second)).toBe(false);
    expect((backofficeLog.text() + authLog.text()).includes(second)).toBe(false);
  });

  test('when an admin rotates the webhook secret with an overlap, then the new secret is shown once with the time the previous one stops', async () => {
    const partnerId = await stand.newPartnerId(`Webhook rotated ${randomUUID().slice(0, 6)}`);
    const rotated = await rotate(admin, partnerId, 'webhook', { overlapHours: 6 });
    expect(rotated).toMatchObject({ status: 201, body: { data: { replayed: false, webhookSecret: expect.stringMatching(/^whsec_/) } } });
    const endsMs = Date.parse(String(rotated.body.data?.previousSecretsValidUntil));
    expect(Math.abs(endsMs - (Date.now() + 6 * 3_600_000))).toBeLessThan(120_000);
    expect((await auditRows('partner.webhook_secret.rotate')).filter((row) => row.target_id === partnerId && row.outcome === 'done')).toHaveLength(1);
  });

  test('when a viewer or a checker rotates, the key is missing, the overlap is out of range or the partner unknown, then it is refused with its code, role refusals audited, and nothing rotates', async () => {
    const partnerId = await stand.newPartnerId(`Not rotated ${randomUUID().slice(0, 6)}`);
    expect(await rotate(viewer, partnerId, 'client')).toMatchObject({ status: 403, body: { code: 'CON_3001' } });
    expect(await rotate(checker, partnerId, 'webhook')).toMatchObject({ status: 403, body: { code: 'CON_3001' } });
    expect(await rotate(maker, partnerId, 'client', {}, null)).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await rotate(maker, partnerId, 'client', { overlapHours: 2 })).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await rotate(maker, partnerId, 'webhook', { overlapHours: 721 })).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await rotate(maker, randomUUID(), 'client')).toMatchObject({ status: 404, body: { code: 'CON_4008' } });
    expect(await rotate(maker, 'not-a-partner', 'client')).toMatchObject({ status: 404, body: { code: 'CON_4008' } });
    const refused = [...(await auditRows('partner.client_secret.rotate')), ...(await auditRows('partner.webhook_secret.rotate'))].filter((row) => row.target_id === partnerId);
    expect(refused.map((row) => [row.actor_id, row.outcome])).toEqual([
      [viewer.operatorId, 'refused'],
      [checker.operatorId, 'refused'],
    ]);
    const detail = await stand.call('GET', `/api/v1/partners/${partnerId}`, { cookie: viewer.cookie });
    expect(detail.body.data?.operatorActions).toEqual([]);
  });
});

describe('the webhook backlog in the console', () => {
  const ids: Record<string, string> = {};
  const partnerId = randomUUID();

  beforeAll(async () => {
    const rows: [string, string, number, string][] = [
      ['pending', 'pending', 0, '2026-11-02T10:00:00.001Z'],
      ['retrying', 'pending', 2, '2026-11-02T10:00:00.002Z'],
      ['dead', 'failed', 4, '2026-11-02T10:00:00.003Z'],
    ];
    for (const [name, status, attempts, createdAt] of rows) {
      ids[name] = randomUUID();
      await webhooks.pool.query(
        `INSERT INTO deliveries (delivery_id, event_id, partner_id, event_type, reference_id, body, status, attempt_count, cycle_attempt_count, next_attempt_at, last_error, created_at, failed_at)
         VALUES ($1, $2, $3, 'collection.completed', $4, '{"secret":"never-shown"}', $5, $6, $6, CASE WHEN $5 = 'pending' THEN now() + interval '1 hour' END, CASE WHEN $6 > 0 THEN 'HTTP 500' END, $7, CASE WHEN $5 = 'failed' THEN now() END)`,
        [ids[name], randomUUID(), partnerId, `PKC-${name.toUpperCase()}`, status, attempts, createdAt],
      );
      for (let attempt = 1; attempt <= attempts; attempt += 1) {
        await webhooks.pool.query(`INSERT INTO delivery_attempts (delivery_id, attempt_number, started_at, outcome, status_code, latency_ms, error) VALUES ($1, $2, now(), 'failed', 500, 9, 'HTTP 500')`, [ids[name], attempt]);
      }
    }
  });

  test('when each role lists the backlog of a partner, then pending, retrying and dead deliveries come newest first in pages with attempts and last status, never a body', async () => {
    for (const person of [viewer, maker, checker, admin]) {
      const first = await stand.call('GET', `/api/v1/webhook-deliveries?partnerId=${partnerId}&pageSize=2`, { cookie: person.cookie });
      expect(first.status).toBe(200);
      const second = await stand.call('GET', `/api/v1/webhook-deliveries?partnerId=${partnerId}&pageSize=2&cursor=${String(first.body.data?.nextCursor)}`, { cookie: person.cookie });
      const listed = [...(first.body.data?.deliveries as { deliveryId: string; status: string }[]), ...(second.body.data?.deliveries as { deliveryId: string; status: string }[])];
      expect(listed.map((delivery) => [delivery.deliveryId, delivery.status])).toEqual([
        [ids.dead, 'dead'],
        [ids.retrying, 'retrying'],
        [ids.pending, 'pending'],
      ]);
      expect(second.body.data?.nextCursor).toBeNull();
      expect(first.text + second.text).not.toContain('never-shown');
    }
    const dead = await stand.call('GET', `/api/v1/webhook-deliveries?status=dead&partnerId=${partnerId}`, { cookie: viewer.cookie });
    expect(dead.body.data?.deliveries).toEqual([expect.objectContaining({ deliveryId: ids.dead, attemptCount: 4, lastStatusCode: 500, nextAttemptAt: null, deliveryState: 'failed' })]);
    expect(await stand.call('GET', '/api/v1/webhook-deliveries?status=delivered', { cookie: viewer.cookie })).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await stand.call('GET', '/api/v1/webhook-deliveries?cursor=forged', { cookie: viewer.cookie })).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await stand.call('GET', '/api/v1/webhook-deliveries')).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
  });

  test('when a maker redelivers a dead delivery, then it is due again and audited; viewers and checkers are refused and audited; an unknown delivery is 404 CON_4010', async () => {
    const redeliver = (person: SignedInOperator, id: string) => stand.call('POST', `/api/v1/webhook-deliveries/${id}/redeliver`, { cookie: person.cookie, csrf: person.csrf, body: {} });
    for (const person of [viewer, checker]) expect(await redeliver(person, ids.dead as string)).toMatchObject({ status: 403, body: { code: 'CON_3001' } });
    expect((await webhooks.pool.query(`SELECT status FROM deliveries WHERE delivery_id = $1`, [ids.dead])).rows[0]).toEqual({ status: 'failed' });
    const done = await redeliver(maker, ids.dead as string);
    expect(done).toMatchObject({ status: 200, body: { data: { deliveryId: ids.dead, partnerId, before: { deliveryState: 'failed' }, after: { deliveryState: 'pending' } } } });
    expect(await redeliver(admin, randomUUID())).toMatchObject({ status: 404, body: { code: 'CON_4010' } });
    // A double click with the page's Idempotency-Key: one redelivery, one audit entry.
    const key = randomUUID();
    const clicks = await Promise.all([0, 1].map(() => stand.call('POST', `/api/v1/webhook-deliveries/${ids.retrying}/redeliver`, { cookie: admin.cookie, csrf: admin.csrf, body: {}, headers: { 'idempotency-key': key } })));
    expect(clicks.map((click) => click.body.data?.replayed).sort()).toEqual([false, true]);
    expect((await auditRows('webhook_delivery.redeliver')).filter((row) => row.target_id === ids.retrying)).toHaveLength(1);
    const rows = (await auditRows('webhook_delivery.redeliver')).filter((row) => row.target_id === ids.dead);
    expect(rows.map((row) => [row.actor_id, row.outcome])).toEqual([
      [viewer.operatorId, 'refused'],
      [checker.operatorId, 'refused'],
      [maker.operatorId, 'done'],
    ]);
    expect(rows[2]).toMatchObject({ before: { deliveryState: 'failed' }, after: { deliveryState: 'pending', partnerId } });
  });

  test('when the webhooks service does not answer, then the list is 503 PKC_7003, never an empty list, and a redelivery is 503 too', async () => {
    const away = await startConsoleStand('backoffice_partner_tasks_away', { auth: stand.auth });
    try {
      const person = await away.signedInOperator('Away Maker', ['maker']);
      expect(await away.call('GET', '/api/v1/webhook-deliveries', { cookie: person.cookie })).toMatchObject({ status: 503, body: { code: 'PKC_7003' } });
      expect(await away.call('POST', `/api/v1/webhook-deliveries/${randomUUID()}/redeliver`, { cookie: person.cookie, csrf: person.csrf, body: {} })).toMatchObject({ status: 503, body: { code: 'PKC_7003' } });
    } finally {
      await away.stop();
    }
  });
});
