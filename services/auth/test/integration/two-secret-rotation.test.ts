import { randomUUID } from 'node:crypto';
import { postJson, startAuthHarness, type AuthHarness } from './auth-harness';

/**
 * A client secret rotated without downtime (issue 28): a second secret is added (shown once) and
 * both get tokens until the previous one is revoked; adds at once give one second secret; a member
 * changes only their own partner's secrets; every step is recorded with who, never a secret.
 */
let harness: AuthHarness;

beforeAll(async () => {
  harness = await startAuthHarness();
});

afterAll(async () => {
  await harness.stop();
});

const operator = { kind: 'operator', id: randomUUID(), displayName: 'Maker Kollie' } as const;
const changes = (body: unknown) => postJson(`${harness.baseUrl}/internal/admin/partner-client-secret-changes`, body);
const token = (clientId: string, clientSecret: string) => postJson(`${harness.baseUrl}/partner/auth/token`, { client_id: clientId, client_secret: clientSecret });

async function onboarded(): Promise<{ partnerId: string; clientId: string; clientSecret: string }> {
  const answer = await postJson(`${harness.baseUrl}/internal/admin/partner-onboardings`, { requestId: randomUUID(), name: `Two secrets ${randomUUID().slice(0, 6)}`, permissions: ['disbursement'], status: 'active', rateLimitPerMinute: null, webhookUrl: null, actor: { operatorId: operator.id, displayName: operator.displayName } });
  expect(answer.status).toBe(200);
  return { partnerId: answer.body.partner.partnerId, clientId: answer.body.partner.clientId, clientSecret: answer.body.clientSecret };
}

describe('the two-secret rotation of a client secret', () => {
  it('when a member adds a second secret, then both get tokens, a replay does not show it again, and after the previous one is revoked only the new one does', async () => {
    const partner = await onboarded();
    const member = { kind: 'member', id: randomUUID(), displayName: 'Ada Admin', partnerId: partner.partnerId } as const;
    const requestId = randomUUID();
    const added = await changes({ requestId, partnerId: partner.partnerId, step: 'add_second', actor: member });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ replayed: false, step: 'add_second', clientId: partner.clientId, secondSince: expect.any(String) });
    const second = added.body.clientSecret as string;
    expect(second).toMatch(/^pwsk_/);
    expect((await token(partner.clientId, partner.clientSecret)).status).toBe(200);
    expect((await token(partner.clientId, second)).status).toBe(200);
    expect((await token(partner.clientId, `${second}x`)).status).toBe(401);
    const replay = await changes({ requestId, partnerId: partner.partnerId, step: 'add_second', actor: member });
    expect(replay.body).toMatchObject({ replayed: true, clientSecret: null });
    const slots = await fetch(`${harness.baseUrl}/internal/admin/partners/${partner.partnerId}/client-secrets`).then((response) => response.json());
    expect(slots).toEqual({ clientId: partner.clientId, currentSince: expect.any(String), secondSince: added.body.secondSince });

    const revoked = await changes({ requestId: randomUUID(), partnerId: partner.partnerId, step: 'revoke_previous', actor: member });
    expect(revoked.body).toMatchObject({ replayed: false, step: 'revoke_previous', secondSince: null, currentSince: added.body.secondSince, clientSecret: null });
    expect((await token(partner.clientId, partner.clientSecret)).status).toBe(401);
    expect((await token(partner.clientId, second)).status).toBe(200);
    const again = await changes({ requestId: randomUUID(), partnerId: partner.partnerId, step: 'revoke_previous', actor: member });
    expect([again.status, again.body.code]).toEqual([409, 'PKC_6004']);
    const records = await harness.service.pool.query(`SELECT action, operator_id, operator_name, actor_kind, before, after FROM operator_actions WHERE partner_id = $1 AND action LIKE 'partner.client_secret.%' ORDER BY recorded_at`, [partner.partnerId]);
    expect(records.rows.map((row) => [row.action, row.operator_id, row.actor_kind])).toEqual([
      ['partner.client_secret.add_second', member.id, 'member'],
      ['partner.client_secret.revoke_previous', member.id, 'member'],
    ]);
    expect(JSON.stringify(records.rows)).not.toMatch(/pwsk_|hash/);
  });

  it('when five adds arrive at once, then one second secret is issued and the others are refused; a member of another partner is refused and nothing changes', async () => {
    const partner = await onboarded();
    const answers = await Promise.all(Array.from({ length: 5 }, () => changes({ requestId: randomUUID(), partnerId: partner.partnerId, step: 'add_second', actor: operator })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const issued = answers.find((answer) => answer.status === 200)?.body.clientSecret as string;
    expect((await token(partner.clientId, issued)).status).toBe(200);
    const stranger = { kind: 'member', id: randomUUID(), displayName: 'Someone Else', partnerId: randomUUID() } as const;
    const refused = await changes({ requestId: randomUUID(), partnerId: partner.partnerId, step: 'revoke_previous', actor: stranger });
    expect([refused.status, refused.body.code]).toEqual([403, 'PKC_6005']);
    expect((await token(partner.clientId, partner.clientSecret)).status).toBe(200);
    const badStep = await changes({ requestId: randomUUID(), partnerId: partner.partnerId, step: 'rotate_all', actor: operator });
    expect([badStep.status, badStep.body.code]).toEqual([400, 'PKC_2008']);
    const unknown = await changes({ requestId: randomUUID(), partnerId: randomUUID(), step: 'add_second', actor: operator });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'PKC_6002']);
  });
});
