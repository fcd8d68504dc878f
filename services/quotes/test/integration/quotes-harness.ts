import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { dropDatabase, ensureDatabase } from '@pwa/db';
import type { HostedService } from '@pwa/runtime';
import { readQuotesConfig, type QuotesConfig } from '../../src/config';
import { startQuotesService } from '../../src/service';
import { startWalletStandIn, type WalletStandIn } from './wallet-stand-in';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { postgres: string } };

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
  const databaseUrl = new URL(serverUrls().postgres);
  databaseUrl.pathname = `/pwa_quotes_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  await ensureDatabase(databaseUrl.toString());
  const wallet = await startWalletStandIn();
  const env = {
    PORT: '0',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl.toString(),
    WALLET_URL: wallet.url,
    WALLET_TIMEOUT_MS: '500',
    // The breaker opens only when a test means it to; each test gets a fresh service where it matters.
    BREAKER_VOLUME_THRESHOLD: '1000',
  };
  const config = readQuotesConfig({ ...env, ...overrides });
  const service = await startQuotesService(config);
  const database = new Pool({ connectionString: config.DATABASE_URL, max: 4, options: '-c search_path=quotes' });
  // pool.end() does not wait for its connections to close, and the database is dropped (WITH FORCE) right after:
  // a connection still closing is then terminated, which is expected, not an error of the test.
  database.on('error', () => undefined);
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
