import { dropDatabase, type Pool } from '@pwa/db';
import type { HostedService } from '@pwa/runtime';
import { readQuotesConfig, type QuotesConfig } from '../../src/config';
import { startQuotesService } from '../../src/service';
import { createTestDatabase, openTestSql } from '../../../../test/support/test-database';
import { startWalletStandIn, type WalletStandIn } from './wallet-stand-in';

export interface QuotesHarness {
  service: HostedService;
  config: Readonly<QuotesConfig>;
  baseUrl: string;
  wallet: WalletStandIn;
  /** A pool on the harness database with the quotes schema first on the search path. */
  database: Pool;
  /** Another quotes process on the same database and wallet, with other settings. */
  startSibling(overrides: Record<string, string>): Promise<{ baseUrl: string; stop(): Promise<void> }>;
  stop(): Promise<void>;
}

/** Boots quotes in-process on port 0 against its own database, with a wallet stand-in. */
export async function startQuotesHarness(overrides: Record<string, string> = {}): Promise<QuotesHarness> {
  const databaseUrl = await createTestDatabase('quotes_test');
  const wallet = await startWalletStandIn();
  const env = {
    PORT: '0',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    WALLET_URL: wallet.url,
    WALLET_TIMEOUT_MS: '500',
    // The breaker opens only when a test means it to; each test gets a fresh service where it matters.
    BREAKER_VOLUME_THRESHOLD: '1000',
  };
  const config = readQuotesConfig({ ...env, ...overrides });
  const service = await startQuotesService(config);
  const database = openTestSql(config.DATABASE_URL, 'quotes');
  const siblings: HostedService[] = [];
  return {
    service,
    config,
    baseUrl: `http://127.0.0.1:${service.port}`,
    wallet,
    database,
    startSibling: async (siblingOverrides) => {
      const sibling = await startQuotesService(readQuotesConfig({ ...env, ...overrides, ...siblingOverrides }));
      siblings.push(sibling);
      return { baseUrl: `http://127.0.0.1:${sibling.port}`, stop: () => sibling.stop() };
    },
    stop: async () => {
      await Promise.allSettled(siblings.map((sibling) => sibling.stop()));
      await service.stop();
      await database.end();
      await wallet.stop();
      await dropDatabase(config.DATABASE_URL);
    },
  };
}

export interface JsonAnswer {
  status: number;
  body: any;
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<JsonAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

export async function countQuotes(database: Pool): Promise<number> {
  const result = await database.query<{ count: string }>('SELECT count(*) AS count FROM quotes');
  return Number(result.rows[0]?.count ?? 0);
}
