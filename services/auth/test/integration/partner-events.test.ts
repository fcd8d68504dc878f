import { randomUUID } from 'node:crypto';
import { connectBus, type Bus } from '@pwa/bus';
import type { EventEnvelope } from '@pwa/contracts';
import { createLogger } from '@pwa/logging';
import { changePartner, onboardPartner, rotateClientSecret } from '../../src/use-cases/manage-partners';
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

describe('partner events through the outbox', () => {
  it('when the operator onboards, changes and rotates a partner, then partner.* events arrive in order without secrets', async () => {
    const partner = await onboardPartner(harness.service.pool, 'sandbox', {
      name: `events ${randomUUID()}`,
      permissions: ['collection', 'disbursement'],
      status: 'active',
      rateLimitPerMinute: null,
      webhookUrl: null,
    });
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
      expect(JSON.stringify(event)).not.toContain('argon2');
    }
    const outbox = await harness.service.pool.query<{ unpublished: string }>(
      'SELECT count(*) AS unpublished FROM outbox WHERE published_at IS NULL',
    );
    expect(outbox.rows[0]?.unpublished).toBe('0');
  });

  it('when a change names an unknown partner, then it fails and the outbox is unchanged', async () => {
    const countOutbox = async () =>
      (await harness.service.pool.query<{ total: string }>('SELECT count(*) AS total FROM outbox')).rows[0]?.total;
    const before = await countOutbox();
    await expect(changePartner(harness.service.pool, randomUUID(), { status: 'suspended' })).rejects.toThrow('No partner');
    expect(await countOutbox()).toBe(before);
  });
});
