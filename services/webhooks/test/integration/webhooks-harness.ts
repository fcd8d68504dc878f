import { randomBytes, randomUUID } from 'node:crypto';
import { connectBus, type Bus } from '@pwa/bus';
import { createEventEnvelope, type EventEnvelope } from '@pwa/contracts';
import { createPool, dropDatabase, ensureDatabase, type Pool } from '@pwa/db';
import { createLogger } from '@pwa/logging';
import type { HostedService } from '@pwa/runtime';
import { sealToBase64 } from '@pwa/sealing';
import { readWebhooksConfig, type WebhooksConfig } from '../../src/config';
import { startWebhooksService } from '../../src/service';
import { deleteExchange } from '../../../../test/support/cleanup';
import { webhooksSchema } from '../../src/service-paths';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { postgres: string; amqp: string } };

export interface TestSecret {
  secretId: string;
  secret: string;
  validFrom: string;
  validUntil: string | null;
}

export interface TestPartner {
  partnerId: string;
  clientId: string;
  secret: string;
}

export interface WebhooksHarness {
  config: Readonly<WebhooksConfig>;
  /** http://127.0.0.1:<port> of the running service (changes after a restart). */
  baseUrl(): string;
  /** A pool on the service's schema, for asserting what was recorded. */
  pool: Pool;
  publish(envelope: EventEnvelope): Promise<void>;
  /** Publishes partner.created (or the given type) with the secrets sealed as auth seals them; resolves once the service applied it. */
  publishPartner(partner: { partnerId?: string; clientId?: string; webhookUrl: string | null; secrets?: TestSecret[]; type?: string }): Promise<TestPartner>;
  /** Publishes a collection event for the partner; returns the envelope. */
  publishCollectionEvent(partnerId: string, type?: 'collection.completed' | 'collection.declined' | 'collection.expired'): Promise<EventEnvelope>;
  partnerGet(partnerId: string, path: string): Promise<{ status: number; body: any }>;
  partnerPost(partnerId: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Stops the service and starts it again on the same database and queues. */
  restart(overrides?: Record<string, string>): Promise<void>;
  stopService(): Promise<void>;
  startService(overrides?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

export function newSecret(validFrom = new Date(Date.now() - 60_000), validUntil: Date | null = null): TestSecret {
  return { secretId: randomUUID(), secret: `whsec_${randomBytes(32).toString('base64')}`, validFrom: validFrom.toISOString(), validUntil: validUntil?.toISOString() ?? null };
}

/** Boots webhooks in-process on port 0 against its own database and exchange on the real servers. */
export async function startWebhooksHarness(env: Record<string, string> = {}): Promise<WebhooksHarness> {
  const urls = serverUrls();
  const databaseUrl = new URL(urls.postgres);
  databaseUrl.pathname = `/pwa_webhooks_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  await ensureDatabase(databaseUrl.toString());
  const sealingKeyBase64 = randomBytes(32).toString('base64');
  const sealingKey = Buffer.from(sealingKeyBase64, 'base64');
  const baseEnv: Record<string, string> = {
    PORT: '0',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    DATABASE_URL: databaseUrl.toString(),
    AMQP_URL: urls.amqp,
    BUS_EXCHANGE: `test.webhooks.${randomUUID()}`,
    WEBHOOK_SECRET_SEALING_KEY: sealingKeyBase64,
    WEBHOOK_POLL_INTERVAL_MS: '50',
    WEBHOOK_ATTEMPT_TIMEOUT_MS: '1000',
    WEBHOOK_RETRY_DELAYS_MS: '200,200,200',
    WEBHOOK_LEASE_MARGIN_MS: '500',
    // No auth service here: the partner directory read fails (refused at once) and partners come from events only.
    AUTH_URL: 'http://127.0.0.1:9',
    ...env,
  };
  let config = readWebhooksConfig(baseEnv);
  let service: HostedService | undefined = await startWebhooksService(config);
  const logger = createLogger({ service: 'webhooks-test', level: 'silent' });
  const bus: Bus = await connectBus({ url: config.AMQP_URL, exchange: config.BUS_EXCHANGE, serviceName: 'webhooks-test', logger });
  const pool = createPool({ connectionString: config.DATABASE_URL, applicationName: 'webhooks-test', schema: webhooksSchema, maxConnections: 3 });

  const running = (): HostedService => {
    if (!service) throw new Error('the webhooks service is stopped');
    return service;
  };
  const request = async (method: string, partnerId: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const response = await fetch(`http://127.0.0.1:${running().port}${path}`, {
      method,
      headers: { 'x-partner-id': partnerId, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() };
  };
  const startService = async (overrides: Record<string, string> = {}): Promise<void> => {
    config = readWebhooksConfig({ ...baseEnv, ...overrides });
    service = await startWebhooksService(config);
  };
  const stopService = async (): Promise<void> => {
    await service?.stop();
    service = undefined;
  };

  return {
    get config() {
      return config;
    },
    baseUrl: () => `http://127.0.0.1:${running().port}`,
    pool,
    publish: (envelope) => bus.publish(envelope),
    publishPartner: async ({ partnerId = randomUUID(), clientId = randomUUID(), webhookUrl, secrets = [newSecret()], type = 'partner.created' }) => {
      const envelope = createEventEnvelope({
        type,
        producer: 'auth',
        data: {
          partnerId,
          clientId,
          name: 'Webhook test partner',
          status: 'active',
          permissions: ['collection', 'disbursement'],
          rateLimitPerMinute: null,
          webhookUrl,
          webhookSecrets: secrets.map((secret) => ({
            secretId: secret.secretId,
            sealedSecret: sealToBase64(secret.secret, sealingKey, `${partnerId}:${secret.secretId}`),
            validFrom: secret.validFrom,
            validUntil: secret.validUntil,
          })),
        },
      });
      await bus.publish(envelope);
      await waitUntil(async () => {
        const result = await pool.query('SELECT 1 FROM processed_events WHERE event_id = $1', [envelope.eventId]);
        return (result.rowCount ?? 0) > 0;
      }, 5_000);
      return { partnerId, clientId, secret: secrets[0]?.secret ?? '' };
    },
    publishCollectionEvent: async (partnerId, type = 'collection.completed') => {
      const eventId = randomUUID();
      const status = type.slice('collection.'.length);
      const envelope = createEventEnvelope({
        type,
        eventId,
        producer: 'collections',
        data: {
          eventId,
          event: type,
          partnerId,
          referenceId: `PKC-${Date.now()}-${randomBytes(4).toString('hex').toUpperCase()}`,
          externalId: `ext-${randomUUID()}`,
          amount: 125.5,
          currency: 'USD',
          fee: 1.25,
          status,
          ...(type === 'collection.completed' ? { transactionId: `TXN-${randomBytes(6).toString('hex').toUpperCase()}` } : {}),
          timestamp: new Date().toISOString(),
        },
      });
      await bus.publish(envelope);
      return envelope;
    },
    partnerGet: (partnerId, path) => request('GET', partnerId, path),
    partnerPost: (partnerId, path, body) => request('POST', partnerId, path, body ?? {}),
    restart: async (overrides) => {
      await stopService();
      await startService(overrides);
    },
    stopService,
    startService,
    stop: async () => {
      await stopService();
      await bus.close();
      await pool.end();
      await dropDatabase(config.DATABASE_URL);
      await deleteExchange(config.AMQP_URL, config.BUS_EXCHANGE);
    },
  };
}

export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, intervalMs = 25): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The service's rows of one event: its deliveries and their attempts. */
export async function deliveriesOfEvent(pool: Pool, eventId: string): Promise<{ deliveries: any[]; attempts: any[] }> {
  const deliveries = await pool.query('SELECT * FROM deliveries WHERE event_id = $1', [eventId]);
  const attempts = await pool.query(
    'SELECT a.* FROM delivery_attempts a JOIN deliveries d USING (delivery_id) WHERE d.event_id = $1 ORDER BY a.attempt_number',
    [eventId],
  );
  return { deliveries: deliveries.rows, attempts: attempts.rows };
}
