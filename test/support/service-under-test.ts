import { randomBytes } from 'node:crypto';
import { dropDatabase, type Pool } from '@pwa/db';
import { deleteExchange } from './cleanup';
import { startJsonStandIn, type StandInAnswer } from './json-stand-in';
import { createTestDatabase, openTestSql } from './test-database';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('./server-urls') as { serverUrls: () => { postgres: string; amqp: string } };

/**
 * A service booted in-process on port 0 for one test file, on real Postgres and RabbitMQ (a
 * database and an exchange of its own), with the internal services it calls (quotes and the
 * wallet) played by one stand-in that answers by their contracts. What collections' and
 * disbursements' harnesses share; each names its service and how it starts.
 */

export interface JsonAnswer {
  status: number;
  body: any;
}

export interface RunningService {
  port: number;
  stop(): Promise<void>;
}

export interface ServiceUnderTest<Service extends RunningService> {
  service: Service;
  /** http://127.0.0.1:<port> of the service. */
  baseUrl: string;
  /** SQL the test runs itself, on the service's schema. */
  sql: Pool;
  /** Calls the service as the gateway does: JSON in and out, with x-partner-id when a partner is named. */
  call(method: 'GET' | 'POST', path: string, options?: { partner?: string; body?: unknown }): Promise<JsonAnswer>;
  /** GET /metrics: the Prometheus text. */
  scrape(): Promise<string>;
  stop(): Promise<void>;
}

export interface ServiceUnderTestOptions<Service extends RunningService> {
  /** The service's schema, which also names its test database and exchange. */
  schema: string;
  /** Boots the service from these settings, read by its own config schema. */
  start(env: Record<string, string>): Promise<Service>;
  /** How the stand-in answers; QUOTES_URL and WALLET_URL both point at it. */
  upstreams: StandInAnswer;
  /** The test file's own settings, over the harness's. */
  env?: Record<string, string>;
}

export async function startServiceUnderTest<Service extends RunningService>(options: ServiceUnderTestOptions<Service>): Promise<ServiceUnderTest<Service>> {
  const servers = serverUrls();
  const exchange = `pwa.${options.schema}-it.${randomBytes(4).toString('hex')}`;
  const databaseUrl = await createTestDatabase(`${options.schema}_test`);
  const upstreams = await startJsonStandIn(options.upstreams);
  const removeAll = (): Promise<unknown> => Promise.allSettled([upstreams.stop(), deleteExchange(servers.amqp, exchange), dropDatabase(databaseUrl)]);
  let service: Service;
  try {
    service = await options.start({
      PORT: '0',
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl,
      AMQP_URL: servers.amqp,
      BUS_EXCHANGE: exchange,
      QUOTES_URL: upstreams.url,
      WALLET_URL: upstreams.url,
      ...options.env,
    });
  } catch (error) {
    await removeAll();
    throw error;
  }
  const baseUrl = `http://127.0.0.1:${service.port}`;
  const sql = openTestSql(databaseUrl, options.schema);
  return {
    service,
    baseUrl,
    sql,
    call: async (method, path, { partner, body } = {}) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(partner === undefined ? {} : { 'x-partner-id': partner }) },
        ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
      });
      return { status: response.status, body: await response.json() };
    },
    scrape: async () => (await fetch(`${baseUrl}/metrics`)).text(),
    stop: async () => {
      await service.stop();
      await sql.end();
      await removeAll();
    },
  };
}
