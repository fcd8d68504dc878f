import { currencies, minorFromDatabase, type Currency } from '@pwa/money';
import type { PoolClient, Queryable } from '@pwa/db';

export type SystemAccountKind = 'fee_revenue' | 'funding';

export interface PartnerAccount {
  partnerId: string;
  currency: Currency;
  accountId: string;
  balanceMinor: bigint;
}

interface PartnerAccountRow {
  partner_id: string;
  currency: Currency;
  account_id: string;
  balance_minor: string;
}

function toPartnerAccount(row: PartnerAccountRow): PartnerAccount {
  return { partnerId: row.partner_id, currency: row.currency, accountId: row.account_id, balanceMinor: minorFromDatabase(row.balance_minor) };
}

/** Opens the partner's account in a currency on first use; does nothing when it exists. */
export async function ensurePartnerAccount(db: Queryable, partnerId: string, currency: Currency): Promise<void> {
  await db.query(
    `INSERT INTO ledger_accounts (kind, currency, partner_id) VALUES ('partner', $2, $1)
     ON CONFLICT (partner_id, currency) WHERE kind = 'partner' DO NOTHING`,
    [partnerId, currency],
  );
}

export async function findPartnerAccount(db: Queryable, partnerId: string, currency: Currency): Promise<PartnerAccount | undefined> {
  const result = await db.query<PartnerAccountRow>(
    `SELECT partner_id, currency, account_id, balance_minor FROM ledger_accounts WHERE kind = 'partner' AND partner_id = $1 AND currency = $2`,
    [partnerId, currency],
  );
  const row = result.rows[0];
  return row ? toPartnerAccount(row) : undefined;
}

/** Every partner account, or one partner's, ordered by partner and currency. */
export async function listPartnerAccounts(db: Queryable, partnerId?: string): Promise<PartnerAccount[]> {
  const result = await db.query<PartnerAccountRow>(
    `SELECT partner_id, currency, account_id, balance_minor FROM ledger_accounts
      WHERE kind = 'partner' AND ($1::uuid IS NULL OR partner_id = $1::uuid)
      ORDER BY partner_id, currency`,
    [partnerId ?? null],
  );
  return result.rows.map(toPartnerAccount);
}

export async function systemAccountId(db: Queryable, kind: SystemAccountKind, currency: Currency): Promise<string> {
  const result = await db.query<{ account_id: string }>(`SELECT account_id FROM ledger_accounts WHERE kind = $1 AND currency = $2`, [kind, currency]);
  const row = result.rows[0];
  if (!row) throw new Error(`The ${kind} account in ${currency} is missing; the wallet migrations create it`);
  return row.account_id;
}

export async function systemBalances(db: Queryable, kind: SystemAccountKind): Promise<Record<Currency, bigint>> {
  const result = await db.query<{ currency: Currency; balance_minor: string }>(
    `SELECT currency, balance_minor FROM ledger_accounts WHERE kind = $1`,
    [kind],
  );
  const balances = Object.fromEntries(currencies.map((currency) => [currency, 0n])) as Record<Currency, bigint>;
  for (const row of result.rows) balances[row.currency] = minorFromDatabase(row.balance_minor);
  return balances;
}

/**
 * Locks ledger accounts in ascending account id, the one order every transaction uses, so two
 * postings that share accounts wait for each other instead of deadlocking. (The LockRows step runs
 * above the sort, so rows are locked in the ORDER BY order.) Returns the locked balances by id.
 */
export async function lockAccounts(client: PoolClient, accountIds: readonly string[]): Promise<Map<string, bigint>> {
  return (await lockAccountsAndReadClock(client, accountIds)).balances;
}

interface LockedAccountsRow {
  account_ids: string[] | null;
  balances_minor: string[] | null;
  now: Date;
}

/**
 * lockAccounts, and the database's clock read by the same statement once every lock is held: the
 * aggregate consumes every locked row before its one output row (and the clock in it) is made, and
 * it makes that row even when no account is given. A posting's time (and the end of its limit
 * windows) is therefore never earlier than a posting it waited for, without a round trip of its own.
 */
export async function lockAccountsAndReadClock(
  client: PoolClient,
  accountIds: readonly string[],
): Promise<{ balances: Map<string, bigint>; now: Date }> {
  const result = await client.query<LockedAccountsRow>(
    `WITH locked AS (
       SELECT account_id, balance_minor FROM ledger_accounts WHERE account_id = ANY($1::bigint[]) ORDER BY account_id FOR UPDATE
     )
     SELECT array_agg(account_id::text) AS account_ids, array_agg(balance_minor::text) AS balances_minor, clock_timestamp() AS now
       FROM locked`,
    [accountIds],
  );
  const row = result.rows[0];
  if (!row) throw new Error('locking accounts returned no row');
  const ids = row.account_ids ?? [];
  const balances = row.balances_minor ?? [];
  return { balances: new Map(ids.map((id, index) => [id, minorFromDatabase(balances[index] ?? '')])), now: row.now };
}
