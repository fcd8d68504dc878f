import { randomUUID } from 'node:crypto';
import { startTcpProxy, viaProxy, type TcpProxy } from '../../../../libs/bus/test/support/tcp-proxy';
import { seriesValue } from '../../../../test/support/prometheus-text';
import { onboardPartner } from '../../src/use-cases/manage-partners';
import { startAuthHarness, type AuthHarness } from './auth-harness';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { amqp: string } };

/**
 * Readiness means "this instance can serve its requests now": auth's requests need PostgreSQL only,
 * so a broker outage (the real broker behind a relay the test cuts) leaves it ready, its events
 * wait in the outbox, and bus_connected says the broker is away. Collections, disbursements and
 * webhooks follow the same rule (their service.ts); the stack's fault tests cover them together.
 */
describe('auth through a broker outage', () => {
  let proxy: TcpProxy;
  let harness: AuthHarness;

  beforeAll(async () => {
    const broker = new URL(serverUrls().amqp);
    proxy = await startTcpProxy(broker.hostname, Number(broker.port || 5672));
    harness = await startAuthHarness({ AMQP_URL: viaProxy(serverUrls().amqp, proxy) });
  });

  afterAll(async () => {
    proxy.setRefusing(false);
    await harness?.stop();
    await proxy?.close();
  });

  const scrape = async (): Promise<string> => (await fetch(`${harness.baseUrl}/metrics`)).text();

  test('when the broker goes away, then auth stays ready and serves, bus_connected reads 0, the event waits in the outbox, and it is published once the broker returns', async () => {
    proxy.setRefusing(true);
    proxy.dropConnections();
    await waitFor(async () => seriesValue(await scrape(), 'bus_connected', {}) === 0, 'auth sees the broker gone');

    const partner = await onboardPartner(harness.service.pool, 'sandbox', harness.webhookSecretSealingKey, {
      name: `outage ${randomUUID()}`,
      permissions: ['collection'],
      status: 'active',
      rateLimitPerMinute: null,
      webhookUrl: null,
    });
    const ready = await fetch(`${harness.baseUrl}/readyz`);
    const token = await fetch(`${harness.baseUrl}/partner/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: partner.clientId, client_secret: partner.clientSecret }),
    });
    const duringScrape = await scrape();
    const pendingDuring = await unpublishedRows();

    expect(ready.status).toBe(200);
    expect(token.status).toBe(200);
    expect(seriesValue(duringScrape, 'service_ready', {})).toBe(1);
    expect(seriesValue(duringScrape, 'bus_connected', {})).toBe(0);
    expect(pendingDuring).toBeGreaterThan(0);

    proxy.setRefusing(false);
    await waitFor(async () => seriesValue(await scrape(), 'bus_connected', {}) === 1, 'auth reconnects');
    await waitFor(async () => (await unpublishedRows()) === 0, 'the outbox drains');
  });

  async function unpublishedRows(): Promise<number> {
    const { rows } = await harness.service.pool.query<{ count: number }>('SELECT count(*)::int AS count FROM outbox WHERE published_at IS NULL');
    return rows[0]?.count ?? 0;
  }
});

/** Polls until the condition holds, for at most 20 s (reconnects back off up to 5 s). */
async function waitFor(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting until ${what}`);
}
