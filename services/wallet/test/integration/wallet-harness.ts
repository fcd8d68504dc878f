import { randomUUID } from 'node:crypto';
import { dropDatabase, type Pool } from '@pwa/db';
import type { HostedService } from '@pwa/runtime';
import type { Currency } from '@pwa/money';
import { readWalletConfig, type WalletConfig } from '../../src/config';
import { startWalletService } from '../../src/service';
import { changeUser, createUser, type NewUserRequest } from '../../src/use-cases/manage-users';
import { creditWalletInSandbox, fundPartner } from '../../src/use-cases/operator-postings';
import type { User } from '../../src/domain/user';
import { createTestDatabase, openTestSql } from '../../../../test/support/test-database';

export interface WalletHarness {
  service: HostedService;
  config: Readonly<WalletConfig>;
  baseUrl: string;
  /** The service's own pool (search_path = wallet), for setting up rows through the use cases. */
  pool: Pool;
  /** A second pool for SQL the tests run directly, as an operator with psql would. */
  sql: Pool;
  stop: () => Promise<void>;
}

/** Boots wallet in-process on port 0 against its own database on the real Postgres server. */
export async function startWalletHarness(overrides: Record<string, string> = {}): Promise<WalletHarness> {
  const databaseUrl = await createTestDatabase('wallet_test');
  const config = readWalletConfig({ PORT: '0', LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl, DATABASE_POOL_MAX: '20', ...overrides });
  const service = await startWalletService(config);
  const sql = openTestSql(config.DATABASE_URL, 'wallet');
  return {
    service,
    config,
    baseUrl: `http://127.0.0.1:${service.port}`,
    pool: service.pool,
    sql,
    stop: async () => {
      await sql.end();
      await service.stop();
      await dropDatabase(config.DATABASE_URL);
    },
  };
}

export interface HttpAnswer {
  status: number;
  body: any;
}

export async function postJson(url: string, body: unknown): Promise<HttpAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

export async function getJson(url: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  const response = await fetch(url, { headers });
  return { status: response.status, body: await response.json() };
}

let phoneCounter = 0;

/** A phone no other test of this file uses (each test file has its own database). */
export function uniquePhone(): string {
  phoneCounter += 1;
  return `+23155${phoneCounter.toString().padStart(7, '0')}`;
}

export interface TestUserOptions extends Partial<Omit<NewUserRequest, 'phone'>> {
  balances?: Partial<Record<Currency, bigint>>;
}

/** A user of its own for one test: active, KYC approved, Gold, LRD and USD wallets, with the given opening balances. */
export async function createTestUser(harness: WalletHarness, options: TestUserOptions = {}): Promise<User> {
  const phone = uniquePhone();
  const user = await createUser(harness.pool, {
    phone,
    name: options.name ?? `Test User ${phone.slice(-4)}`,
    accountStatus: 'active',
    kycStatus: 'approved',
    tier: options.tier ?? 'Gold',
    currencies: options.currencies ?? ['LRD', 'USD'],
  });
  for (const [currency, amountMinor] of Object.entries(options.balances ?? {}) as [Currency, bigint][]) {
    if (amountMinor > 0n) await creditWalletInSandbox(harness.pool, 'sandbox', { phone, currency, amountMinor });
  }
  // Statuses change after the opening credit, as they would for a real user.
  if (options.accountStatus === undefined && options.kycStatus === undefined) return user;
  return changeUser(harness.pool, phone, { accountStatus: options.accountStatus, kycStatus: options.kycStatus });
}

/** A new partner id with the given balances (funded as bank transfers arriving). */
export async function createTestPartner(harness: WalletHarness, balances: Partial<Record<Currency, bigint>> = {}): Promise<string> {
  const partnerId = randomUUID();
  for (const [currency, amountMinor] of Object.entries(balances) as [Currency, bigint][]) {
    await fundPartner(harness.pool, { partnerId, currency, amountMinor, reference: 'test funding' });
  }
  return partnerId;
}

export interface TransferBody {
  transferId: string;
  type: 'collection' | 'disbursement';
  partnerId: string;
  phone: string;
  currency: Currency;
  amountMinor: string;
  feeMinor: string;
  reference?: string;
}

export function transferBody(fields: Omit<TransferBody, 'transferId' | 'feeMinor'> & { transferId?: string; feeMinor?: string }): TransferBody {
  return { transferId: randomUUID(), feeMinor: '0', reference: 'test', ...fields };
}

export async function balanceOfWallet(harness: WalletHarness, phone: string, currency: Currency): Promise<bigint> {
  const result = await harness.sql.query<{ balance_minor: string }>(
    `SELECT a.balance_minor FROM users u JOIN wallets w ON w.user_id = u.user_id JOIN ledger_accounts a ON a.account_id = w.account_id
      WHERE u.phone = $1 AND w.currency = $2`,
    [phone, currency],
  );
  return BigInt(result.rows[0]?.balance_minor ?? '0');
}

export async function balanceOfPartner(harness: WalletHarness, partnerId: string, currency: Currency): Promise<bigint> {
  const result = await harness.sql.query<{ balance_minor: string }>(
    `SELECT balance_minor FROM ledger_accounts WHERE kind = 'partner' AND partner_id = $1 AND currency = $2`,
    [partnerId, currency],
  );
  return BigInt(result.rows[0]?.balance_minor ?? '0');
}

export async function balanceOfSystemAccount(harness: WalletHarness, kind: 'fee_revenue' | 'funding', currency: Currency): Promise<bigint> {
  const result = await harness.sql.query<{ balance_minor: string }>(`SELECT balance_minor FROM ledger_accounts WHERE kind = $1 AND currency = $2`, [kind, currency]);
  return BigInt(result.rows[0]?.balance_minor ?? '0');
}

export async function postingCountOf(harness: WalletHarness, transferId: string): Promise<{ transfers: number; entries: number }> {
  const result = await harness.sql.query<{ transfers: number; entries: number }>(
    `SELECT (SELECT count(*) FROM transfers WHERE transfer_id = $1 AND state = 'posted')::int AS transfers,
            (SELECT count(*) FROM entries WHERE transfer_id = $1)::int AS entries`,
    [transferId],
  );
  return result.rows[0] ?? { transfers: 0, entries: 0 };
}

/**
 * A collection posted some minutes before today's 00:00 UTC (database clock), written with the
 * statements the service uses, so the ledger's triggers check it like any posting. The service
 * itself only ever posts at the current time; this is how a test gets usage from yesterday.
 */
export async function insertBackdatedCollection(
  harness: WalletHarness,
  posting: { phone: string; partnerId: string; currency: Currency; amountMinor: bigint; minutesBeforeToday: number },
): Promise<string> {
  const transferId = randomUUID();
  const client = await harness.sql.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO ledger_accounts (kind, currency, partner_id) VALUES ('partner', $2, $1::uuid) ON CONFLICT (partner_id, currency) WHERE kind = 'partner' DO NOTHING`,
      [posting.partnerId, posting.currency],
    );
    await client.query(
      `INSERT INTO transfers (transfer_id, state, kind, transaction_id, user_id, partner_id, currency, amount_minor, fee_minor, posted_at)
       SELECT $1::uuid, 'posted', 'collection', 'TXN-' || upper(substr(md5($1::text), 1, 16)), user_id, $2::uuid, $3, $4::bigint, 0,
              date_trunc('day', clock_timestamp(), 'UTC') - make_interval(mins => $6::int)
         FROM users WHERE phone = $5`,
      [transferId, posting.partnerId, posting.currency, posting.amountMinor.toString(), posting.phone, posting.minutesBeforeToday],
    );
    await client.query(
      `INSERT INTO entries (transfer_id, account_id, currency, amount_minor)
       SELECT $1::uuid, w.account_id, $3, -$4::bigint FROM users u JOIN wallets w ON w.user_id = u.user_id AND w.currency = $3 WHERE u.phone = $5
       UNION ALL
       SELECT $1::uuid, account_id, $3, $4::bigint FROM ledger_accounts WHERE kind = 'partner' AND partner_id = $2::uuid AND currency = $3`,
      [transferId, posting.partnerId, posting.currency, posting.amountMinor.toString(), posting.phone],
    );
    await client.query('COMMIT');
    return transferId;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** The invariant check every integration file runs after its flows. */
export async function expectLedgerInvariantsHold(harness: WalletHarness): Promise<void> {
  const answer = await getJson(`${harness.baseUrl}/internal/ledger/invariants`);
  expect(answer.status).toBe(200);
  expect(answer.body.problems).toEqual([]);
  expect(answer.body.ok).toBe(true);
}
