import { openFromBase64 } from '@pwa/sealing';
import { onboardPartner, rotateWebhookSecret } from '../../src/use-cases/manage-partners';
import { startAuthHarness, type AuthHarness } from './auth-harness';

let harness: AuthHarness;

beforeAll(async () => {
  harness = await startAuthHarness();
});

afterAll(async () => {
  await harness.stop();
});

async function getJson(path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${harness.baseUrl}${path}`);
  return { status: response.status, body: await response.json() };
}

function onboard(name: string): ReturnType<typeof onboardPartner> {
  return onboardPartner(harness.service.pool, 'sandbox', harness.webhookSecretSealingKey, {
    name,
    permissions: ['collection'],
    status: 'active',
    rateLimitPerMinute: null,
    webhookUrl: 'https://partner.example/hooks',
  });
}

describe('GET /internal/partner-directory', () => {
  it('when partners are listed page by page, then each appears once in partner id order with its sealed current secrets, and the last page has no next', async () => {
    const onboarded = await Promise.all(['Directory A', 'Directory B', 'Directory C'].map(onboard));
    const first = await getJson('/internal/partner-directory?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.partners).toHaveLength(2);
    const second = await getJson(`/internal/partner-directory?limit=2&after=${String(first.body.nextAfter)}`);
    expect(second.body.nextAfter).toBeNull();
    const listed = [...first.body.partners, ...second.body.partners];
    expect(listed.map((entry: { partnerId: string }) => entry.partnerId)).toEqual(onboarded.map((partner) => partner.partnerId).sort());

    const entry = listed.find((candidate: { partnerId: string }) => candidate.partnerId === onboarded[0]?.partnerId);
    expect(entry).toMatchObject({ clientId: onboarded[0]?.clientId, name: 'Directory A', status: 'active', webhookUrl: 'https://partner.example/hooks' });
    expect(entry).not.toHaveProperty('clientSecretHash');
    expect(new Date(entry.changedAt).getTime()).not.toBeNaN();
    const [secret] = entry.webhookSecrets;
    expect(openFromBase64(secret.sealedSecret, harness.webhookSecretSealingKey, `${entry.partnerId}:${secret.secretId}`)).toBe(onboarded[0]?.webhookSecret);
  });

  it('when one partner is asked for after a webhook secret rotation, then both secrets of the overlap are listed and changedAt moved on', async () => {
    const partner = await onboard('Directory Rotated');
    const before = await getJson(`/internal/partner-directory/${partner.partnerId}`);
    const rotated = await rotateWebhookSecret(harness.service.pool, harness.webhookSecretSealingKey, partner.clientId, 24);
    const after = await getJson(`/internal/partner-directory/${partner.partnerId.toUpperCase()}`);
    expect(after.status).toBe(200);
    expect(after.body.webhookSecrets.map((secret: { secretId: string }) => secret.secretId)).toEqual([partner.webhookSecretId, rotated.webhookSecretId]);
    expect(new Date(after.body.changedAt).getTime()).toBeGreaterThan(new Date(before.body.changedAt).getTime());
  });

  it('when the query or the id is wrong, then PKC_2008 or PKC_1009 and no partner', async () => {
    expect(await getJson('/internal/partner-directory?after=not-a-uuid')).toMatchObject({ status: 400, body: { code: 'PKC_2008' } });
    expect(await getJson('/internal/partner-directory?limit=501')).toMatchObject({ status: 400, body: { code: 'PKC_2008' } });
    expect(await getJson('/internal/partner-directory?limit=1&limit=2')).toMatchObject({ status: 400, body: { code: 'PKC_2008' } });
    expect(await getJson('/internal/partner-directory/00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 403, body: { code: 'PKC_1009' } });
  });
});
