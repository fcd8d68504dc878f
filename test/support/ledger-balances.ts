import { Pool } from 'pg';

/**
 * Balances read straight from the wallet's ledger accounts of a stack's database, in minor units:
 * what show-user and show-balances print, without starting an operator CLI process for each read
 * (a process costs about a second on this machine; suites read balances before and after nearly
 * every test). The CLIs themselves have their own tests. One pool per database, closed at exit.
 */
export interface LedgerBalances {
  /** The user's wallet in the currency, undefined when they have none. */
  userMinor: bigint | undefined;
  /** The partner's account in the currency; 0 when it has none yet. */
  partnerMinor: bigint;
  feeRevenueMinor: bigint;
}

const pools = new Map<string, Pool>();

function poolOf(databaseUrl: string): Pool {
  let pool = pools.get(databaseUrl);
  if (!pool) {
    pool = new Pool({ connectionString: databaseUrl, max: 2, allowExitOnIdle: true });
    // A stack's database is dropped when the stack stops; an idle client's error then is expected.
    pool.on('error', () => undefined);
    pools.set(databaseUrl, pool);
  }
  return pool;
}

/** `phone` in the +231 form or the local 0… form. */
export async function ledgerBalances(databaseUrl: string, phone: string, partnerId: string, currency: 'LRD' | 'USD'): Promise<LedgerBalances> {
  const internationalPhone = phone.startsWith('0') ? `+231${phone.slice(1)}` : phone;
  const result = await poolOf(databaseUrl).query<{ user_minor: string | null; partner_minor: string | null; fee_minor: string }>(
    `SELECT (SELECT a.balance_minor FROM wallet.ledger_accounts a JOIN wallet.users u ON u.user_id = a.user_id
              WHERE a.kind = 'user_wallet' AND u.phone = $1 AND a.currency = $3)::text AS user_minor,
            (SELECT balance_minor FROM wallet.ledger_accounts WHERE kind = 'partner' AND partner_id = $2 AND currency = $3)::text AS partner_minor,
            (SELECT balance_minor FROM wallet.ledger_accounts WHERE kind = 'fee_revenue' AND currency = $3)::text AS fee_minor`,
    [internationalPhone, partnerId, currency],
  );
  const row = result.rows[0];
  if (!row) throw new Error('the ledger read returned no row');
  return {
    userMinor: row.user_minor === null ? undefined : BigInt(row.user_minor),
    partnerMinor: BigInt(row.partner_minor ?? '0'),
    feeRevenueMinor: BigInt(row.fee_minor),
  };
}
