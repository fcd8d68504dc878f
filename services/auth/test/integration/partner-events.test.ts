import { randomBytes, randomUUID } from 'node:crypto';
import { connectBus, type Bus } from '@pwa/bus';
import { parsePartnerEvent, type EventEnvelope, type PartnerEventData } from '@pwa/contracts';
import { createLogger } from '@pwa/logging';
import { openFromBase64 } from '@pwa/sealing';
import { changePartner, onboardPartner, rotateClientSecret, rotateWebhookSecret } from '../../src/use-cases/manage-partners';
import { startAuthHarness, type AuthHarness } from './auth-harness';

let harness: AuthHarness;
let bus: Bus;
const received: EventEnvelope[] = [];

beforeAll(async () => {
  harness = await startAuthHarness();
  bus = await connectBus({
    url: harness.config.AMQP_URL,
    exchange: harness.config.BUS_EXCHANGE,
    serviceName: 'auth-test',
    logger: createLogger({ service: 'auth-test', level: 'silent' }),
  });
  await bus.subscribe({
    queue: `${harness.config.BUS_EXCHANGE}.observer`,
    routingKeys: ['partner.*'],
    kind: 'ephemeral',
    handler: (envelope) => {
      received.push(envelope);
      return Promise.resolve();
    },
  });
});

afterAll(async () => {
  await bus.close();
  await harness.stop();
});

async function eventsFor(partnerId: string, count: number): Promise<EventEnvelope[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const matching = received.filter((event) => (event.data as { partnerId?: string }).partnerId === partnerId);
    if (matching.length >= count || Date.now() > deadline) return matching;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function unpublishedOutboxRowsWithin(timeoutMs: number): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const outbox = await harness.service.pool.query<{ unpublished: string }>('SELECT count(*) AS unpublished FROM outbox WHERE published_at IS NULL');
    const unpublished = outbox.rows[0]?.unpublished;
    if (unpublished === '0' || Date.now() > deadline) return unpublished;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function onboard(webhookUrl: string | null = null) {
  return onboardPartner(harness.service.pool, 'sandbox', harness.webhookSecretSealingKey, {
    name: `events ${randomUUID()}`,
    permissions: ['collection', 'disbursement'],
    status: 'active',
    rateLimitPerMinute: null,
    webhookUrl,
  });
}

/** The webhook secrets an event carries, opened with the sealing key and the partner:secret associated data. */
function openedSecrets(data: PartnerEventData, key = harness.webhookSecretSealingKey): string[] {
  return (data.webhookSecrets ?? []).map((entry) => openFromBase64(entry.sealedSecret, key, `${data.partnerId}:${entry.secretId}`));
}

describe('partner events through the outbox', () => {
  it('when the operator onboards, changes and rotates a partner, then partner.* events arrive in order without secrets in clear', async () => {
    const partner = await onboard();
    await changePartner(harness.service.pool, partner.clientId, { status: 'suspended' });
    await changePartner(harness.service.pool, partner.clientId, { rateLimitPerMinute: 120 });
    await rotateClientSecret(harness.service.pool, 'sandbox', partner.clientId);

    const events = await eventsFor(partner.partnerId, 4);
    expect(events.map((event) => event.type)).toEqual(['partner.created', 'partner.updated', 'partner.updated', 'partner.secret_rotated']);
    expect(events[1]?.data).toMatchObject({ status: 'suspended' });
    expect(events[2]?.data).toMatchObject({ status: 'suspended', rateLimitPerMinute: 120 });
    for (const event of events) {
      expect(event.producer).toBe('auth');
      expect(JSON.stringify(event)).not.toContain(partner.clientSecret);
      expect(JSON.stringify(event)).not.toContain(partner.webhookSecret);
      expect(JSON.stringify(event)).not.toContain('whsec_');
      expect(JSON.stringify(event)).not.toContain('argon2');
      // Every partner event carries the current webhook secret, so any one of them rebuilds a consumer's copy.
      const parsed = parsePartnerEvent(event);
      expect(parsed.data.webhookSecrets).toEqual([
        { secretId: partner.webhookSecretId, sealedSecret: expect.any(String), validFrom: expect.any(String), validUntil: null },
      ]);
      expect(openedSecrets(parsed.data)).toEqual([partner.webhookSecret]);
    }
    // The relay marks a row published after the broker's confirm, which can come after a consumer
    // already has the message: wait (bounded) for the marks rather than read them at once.
    expect(await unpublishedOutboxRowsWithin(5_000)).toBe('0');
  });

  it('when a partner is onboarded, then its webhook secret is whsec_ and base64 of 32 bytes, and is stored only sealed', async () => {
    const partner = await onboard();
    expect(partner.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(partner.webhookSecret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    const stored = await harness.service.pool.query<{ sealed_secret: Buffer; valid_until: Date | null }>(
      'SELECT sealed_secret, valid_until FROM webhook_secrets WHERE partner_id = $1',
      [partner.partnerId],
    );
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]?.valid_until).toBeNull();
    expect(stored.rows[0]?.sealed_secret.toString('latin1')).not.toContain(partner.webhookSecret);
  });

  it('when a sealed secret is opened with another key or another partner id, then it does not open', async () => {
    const partner = await onboard();
    const [created] = await eventsFor(partner.partnerId, 1);
    const data = parsePartnerEvent(created as EventEnvelope).data;
    const entry = data.webhookSecrets?.[0];
    if (!entry) throw new Error('no webhook secret in partner.created');
    expect(() => openedSecrets(data, randomBytes(32))).toThrow();
    expect(() => openFromBase64(entry.sealedSecret, harness.webhookSecretSealingKey, `${randomUUID()}:${entry.secretId}`)).toThrow();
  });

  it('when the webhook secret is rotated, then both secrets are valid during the overlap and later events still carry both', async () => {
    const partner = await onboard('https://partner.example/hooks');
    const before = Date.now();
    const rotated = await rotateWebhookSecret(harness.service.pool, harness.webhookSecretSealingKey, partner.clientId, 24);
    expect(rotated.webhookSecret).not.toBe(partner.webhookSecret);
    expect(rotated.webhookSecretId).not.toBe(partner.webhookSecretId);
    const overlapEnd = Date.parse(rotated.previousSecretsValidUntil ?? '');
    expect(overlapEnd).toBeGreaterThanOrEqual(before + 24 * 3600_000 - 60_000);
    expect(overlapEnd).toBeLessThanOrEqual(Date.now() + 24 * 3600_000 + 60_000);
    await changePartner(harness.service.pool, partner.clientId, { status: 'suspended' });

    const events = await eventsFor(partner.partnerId, 3);
    expect(events.map((event) => event.type)).toEqual(['partner.created', 'partner.webhook_secret_rotated', 'partner.updated']);
    for (const event of events.slice(1)) {
      const { data } = parsePartnerEvent(event);
      expect(openedSecrets(data)).toEqual([partner.webhookSecret, rotated.webhookSecret]);
      expect(data.webhookSecrets?.map((entry) => entry.validUntil)).toEqual([rotated.previousSecretsValidUntil, null]);
      expect(JSON.stringify(event)).not.toContain('whsec_');
    }
  });

  it('when the webhook secret is rotated with no overlap, then only the new secret is published', async () => {
    const partner = await onboard();
    await rotateWebhookSecret(harness.service.pool, harness.webhookSecretSealingKey, partner.clientId, 24);
    const rotated = await rotateWebhookSecret(harness.service.pool, harness.webhookSecretSealingKey, partner.clientId, 0);
    const events = await eventsFor(partner.partnerId, 3);
    const last = parsePartnerEvent(events[2] as EventEnvelope);
    expect(last.type).toBe('partner.webhook_secret_rotated');
    expect(openedSecrets(last.data)).toEqual([rotated.webhookSecret]);
  });

  it('when a partner onboarded before webhook secrets has none, then its events carry none until the first rotation issues one', async () => {
    const partner = await onboard();
    // As a partner created before the webhook_secrets table existed.
    await harness.service.pool.query('DELETE FROM webhook_secrets WHERE partner_id = $1', [partner.partnerId]);
    await changePartner(harness.service.pool, partner.clientId, { rateLimitPerMinute: 60 });
    const rotated = await rotateWebhookSecret(harness.service.pool, harness.webhookSecretSealingKey, partner.clientId, 24);
    expect(rotated.previousSecretsValidUntil).toBeNull();
    const events = await eventsFor(partner.partnerId, 3);
    expect(parsePartnerEvent(events[1] as EventEnvelope).data.webhookSecrets).toEqual([]);
    const first = parsePartnerEvent(events[2] as EventEnvelope);
    expect(first.type).toBe('partner.webhook_secret_rotated');
    expect(openedSecrets(first.data)).toEqual([rotated.webhookSecret]);
  });

  it('when a rotation names an unknown partner, then it fails and nothing is stored or published', async () => {
    const countOutbox = async () =>
      (await harness.service.pool.query<{ total: string }>('SELECT count(*) AS total FROM outbox')).rows[0]?.total;
    const before = await countOutbox();
    await expect(rotateWebhookSecret(harness.service.pool, harness.webhookSecretSealingKey, randomUUID(), 24)).rejects.toThrow('No partner');
    expect(await countOutbox()).toBe(before);
  });

  it('when a change names an unknown partner, then it fails and the outbox is unchanged', async () => {
    const countOutbox = async () =>
      (await harness.service.pool.query<{ total: string }>('SELECT count(*) AS total FROM outbox')).rows[0]?.total;
    const before = await countOutbox();
    await expect(changePartner(harness.service.pool, randomUUID(), { status: 'suspended' })).rejects.toThrow('No partner');
    expect(await countOutbox()).toBe(before);
  });
});
