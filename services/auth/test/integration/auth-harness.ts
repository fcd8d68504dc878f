import { randomBytes, randomUUID } from 'node:crypto';
import { connect } from 'amqplib';
import { deadLetterNames } from '@pwa/bus';
import { dropDatabase, ensureDatabase } from '@pwa/db';
import type { Logger } from '@pwa/logging';
import { readAuthConfig, type AuthConfig } from '../../src/config';
import { startAuthService, type AuthService } from '../../src/service';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { postgres: string; amqp: string } };

export interface AuthHarness {
  service: AuthService;
  config: Readonly<AuthConfig>;
  /** WEBHOOK_SECRET_SEALING_KEY of the harness, decoded: seals (and opens) webhook secrets. */
  webhookSecretSealingKey: Buffer;
  baseUrl: string;
  stop: () => Promise<void>;
}

/** Boots auth in-process on port 0 against its own database and its own exchange on the real servers. */
export async function startAuthHarness(overrides: Record<string, string> = {}, options: { logger?: Logger } = {}): Promise<AuthHarness> {
  const urls = serverUrls();
  const databaseUrl = new URL(urls.postgres);
  databaseUrl.pathname = `/pwa_auth_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  await ensureDatabase(databaseUrl.toString());
  const config = readAuthConfig({
    PORT: '0',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl.toString(),
    AMQP_URL: urls.amqp,
    BUS_EXCHANGE: `test.auth.${randomUUID()}`,
    AUTH_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_SECRET_SEALING_KEY: randomBytes(32).toString('base64'),
    OUTBOX_POLL_INTERVAL_MS: '50',
    ...overrides,
  });
  const service = await startAuthService(config, options);
  return {
    service,
    config,
    webhookSecretSealingKey: Buffer.from(config.WEBHOOK_SECRET_SEALING_KEY, 'base64'),
    baseUrl: `http://127.0.0.1:${service.port}`,
    stop: async () => {
      await service.stop();
      await dropDatabase(config.DATABASE_URL);
      await deleteExchangeTopology(config.AMQP_URL, config.BUS_EXCHANGE);
    },
  };
}

export async function postJson(url: string, body: unknown, contentType = 'application/json'): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

/** Removes the run's exchanges and dead-letter queue so test runs leave nothing on the shared broker. */
async function deleteExchangeTopology(amqpUrl: string, exchange: string): Promise<void> {
  const connection = await connect(amqpUrl);
  try {
    const channel = await connection.createChannel();
    const deadLetter = deadLetterNames(exchange);
    await channel.deleteQueue(deadLetter.queue);
    await channel.deleteExchange(deadLetter.exchange);
    await channel.deleteExchange(exchange);
    await channel.close();
  } finally {
    await connection.close();
  }
}
