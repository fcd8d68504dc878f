// The lists benchmark's data (issue 18): one partner's disbursements in the disbursements service's
// table and its ledger entries in the wallet's, made by generate_series in Postgres (a million rows
// in seconds rather than hours through the API), in batches so that no transaction is huge.
//
// Disbursements: spread evenly over the last 365 days, 70 % USD and 30 % LRD, 1 in 20 failed
// (PKC_4002), 1 in 97 timed out (PKC_7004), the rest completed; none processing (the settlement
// sweep would pick those up). Every row satisfies the table's checks (reference and transaction id
// patterns, completed rows with transaction id and completed time, settled rows with settled_at),
// externalId bench-<n> (unique, as the partial unique index wants for active rows).
//
// Ledger: the wallet's rules are the database's own (migrations 100, 300 and later): the seed never
// writes a balance or a statement line. It inserts posted transfers, then in one statement per
// batch all their entries, three legs each (partner -(amount + fee), user wallet +amount, fee revenue
// +fee, as services/wallet/src/domain/posting.ts makes a disbursement); the entries' statement
// trigger checks that every posting sums to zero, moves the balances (refusing an overdraft) and
// writes whatever else the wallet derives from entries. The partner's account was funded through the
// operator CLI first (one entry), so it has ledgerEntries entries in all.
import type { Pool } from 'pg';
import type { Log } from './bench-stack';

const batchSize = 100_000;
const seededUsers = 8;

export interface SeededLedger {
  /** Entries on the partner's USD account after seeding. */
  partnerEntries: number;
  seconds: number;
}

/** Inserts `count` disbursements of the partner, oldest first; resolves the seconds it took. */
export async function seedDisbursements(pool: Pool, partnerId: string, count: number, log: Log): Promise<number> {
  const started = Date.now();
  const client = await pool.connect();
  try {
    await client.query('SET search_path TO disbursements');
    const { rows } = await client.query<{ start: string; step_ms: string }>(
      `SELECT (now() - interval '365 days')::text AS start, (365 * 86400000.0 / $1)::text AS step_ms`,
      [count],
    );
    const window = rows[0];
    if (!window) throw new Error('no clock');
    for (let low = 1; low <= count; low += batchSize) {
      const high = Math.min(count, low + batchSize - 1);
      await client.query(
        `INSERT INTO disbursements (disbursement_id, reference_id, partner_id, external_id, quote_id, phone, recipient_name, currency,
           amount_minor, fee_minor, status, transaction_id, failure_code, created_at, completed_at, settled_at)
         SELECT md5('bench-disbursement-' || i)::uuid,
                'PKD-' || (extract(epoch FROM t.at) * 1000)::bigint || '-' || upper(lpad(to_hex(i), 12, '0')),
                $1::uuid, 'bench-' || i, md5('bench-quote-' || i)::uuid, '+2317799' || lpad((1 + i % ${seededUsers})::text, 5, '0'), 'Bench User',
                CASE WHEN i % 10 < 7 THEN 'USD' ELSE 'LRD' END,
                1000 + i % 500, 10, s.status,
                CASE WHEN s.status = 'completed' THEN 'TXN-BD' || lpad(upper(to_hex(i)), 14, '0') END,
                CASE s.status WHEN 'failed' THEN 'PKC_4002' WHEN 'timed_out' THEN 'PKC_7004' END,
                t.at, CASE WHEN s.status = 'completed' THEN t.at + interval '300 milliseconds' END, t.at + interval '300 milliseconds'
           FROM generate_series($2::bigint, $3::bigint) AS i
          CROSS JOIN LATERAL (SELECT $4::timestamptz + (i * $5::double precision) * interval '1 millisecond' AS at) AS t
          CROSS JOIN LATERAL (SELECT CASE WHEN i % 20 = 0 THEN 'failed' WHEN i % 97 = 0 THEN 'timed_out' ELSE 'completed' END AS status) AS s`,
        [partnerId, low, high, window.start, window.step_ms],
      );
      log(`  disbursements: ${high.toLocaleString('en')} of ${count.toLocaleString('en')} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
    await client.query('ANALYZE disbursements');
  } finally {
    client.release();
  }
  return (Date.now() - started) / 1000;
}

interface LedgerAccounts {
  partnerAccountId: string;
  feeAccountId: string;
  userIds: string[];
  userAccountIds: string[];
}

async function ledgerAccounts(pool: Pool, partnerId: string): Promise<LedgerAccounts> {
  const partner = await pool.query<{ account_id: string }>("SELECT account_id::text FROM wallet.ledger_accounts WHERE kind = 'partner' AND partner_id = $1 AND currency = 'USD'", [partnerId]);
  const fee = await pool.query<{ account_id: string }>("SELECT account_id::text FROM wallet.ledger_accounts WHERE kind = 'fee_revenue' AND currency = 'USD'");
  const users = await pool.query<{ user_id: string; account_id: string }>(
    "SELECT w.user_id, w.account_id::text FROM wallet.wallets w WHERE w.currency = 'USD' AND w.status = 'active' ORDER BY w.user_id LIMIT $1",
    [seededUsers],
  );
  const partnerAccountId = partner.rows[0]?.account_id;
  const feeAccountId = fee.rows[0]?.account_id;
  if (partnerAccountId === undefined || feeAccountId === undefined || users.rows.length === 0) throw new Error('the partner is not funded in USD or there are no users: nothing to post against');
  return { partnerAccountId, feeAccountId, userIds: users.rows.map((row) => row.user_id), userAccountIds: users.rows.map((row) => row.account_id) };
}

/**
 * Posts disbursements until the partner's USD account has `partnerEntries` entries (it has its
 * funding entry already), `batchSize` postings per transaction.
 */
export async function seedLedger(pool: Pool, partnerId: string, partnerEntries: number, log: Log): Promise<SeededLedger> {
  const started = Date.now();
  const accounts = await ledgerAccounts(pool, partnerId);
  const existing = await pool.query<{ count: string }>('SELECT count(*)::text AS count FROM wallet.entries WHERE account_id = $1', [accounts.partnerAccountId]);
  const postings = partnerEntries - Number(existing.rows[0]?.count ?? 0);
  const client = await pool.connect();
  try {
    await client.query('SET search_path TO wallet');
    for (let low = 1; low <= postings; low += batchSize) {
      const high = Math.min(postings, low + batchSize - 1);
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO transfers (transfer_id, state, kind, transaction_id, user_id, partner_id, currency, amount_minor, fee_minor, reference, posted_at)
         SELECT md5('bench-ledger-' || i)::uuid, 'posted', 'disbursement', 'TXN-BE' || lpad(upper(to_hex(i)), 14, '0'),
                ($4::uuid[])[1 + i % array_length($4::uuid[], 1)], $1::uuid, 'USD', 1000 + i % 500, 10, 'bench', clock_timestamp()
           FROM generate_series($2::bigint, $3::bigint) AS i`,
        [partnerId, low, high, accounts.userIds],
      );
      await client.query(
        `INSERT INTO entries (transfer_id, account_id, currency, amount_minor)
         SELECT md5('bench-ledger-' || i)::uuid, leg.account_id, 'USD', leg.amount_minor
           FROM generate_series($1::bigint, $2::bigint) AS i
          CROSS JOIN LATERAL (VALUES
            (1, $3::bigint, -(1010 + i % 500)),
            (2, ($5::bigint[])[1 + i % array_length($5::bigint[], 1)], 1000 + i % 500),
            (3, $4::bigint, 10::bigint)) AS leg (position, account_id, amount_minor)
          ORDER BY i, leg.position`,
        [low, high, accounts.partnerAccountId, accounts.feeAccountId, accounts.userAccountIds],
      );
      await client.query('COMMIT');
      log(`  ledger: ${high.toLocaleString('en')} of ${postings.toLocaleString('en')} postings (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
    await client.query('ANALYZE transfers');
    await client.query('ANALYZE entries');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  const counted = await pool.query<{ count: string }>('SELECT count(*)::text AS count FROM wallet.entries WHERE account_id = $1', [accounts.partnerAccountId]);
  return { partnerEntries: Number(counted.rows[0]?.count ?? 0), seconds: (Date.now() - started) / 1000 };
}
