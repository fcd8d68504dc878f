// The raw cost of one quote's database work, with nothing else around it: the statements the quote
// path runs (quotes' fee-schedule read, the wallet's read-only check transaction, quotes' INSERT),
// in the same order, on the same kind of pools (@pwa/db createPool, one per schema, each of
// DATABASE_POOL_MAX connections, as the two services have), driven by the same number of
// concurrent closed loops as the HTTP benchmark has connections. No HTTP, no validation, no
// logging, no JSON envelope: what is left is pg and Postgres.
//
// The SQL is copied from the services' store modules (named next to each statement). The quote
// benchmark checks that a quote here and a quote through the gateway touch the same tables the
// same number of times (pg_stat_user_tables), so a query added to or removed from the real path
// is noticed instead of silently making this figure wrong.
//
// Runs as a child process of quote.ts (child_process.fork), so its event loop is its own, like the
// services'. Messages in: RawRunRequest with cmd 'run', and { cmd: 'stop' }. Messages out:
// { ready: true }, then one { result } or { error } per run. The workload (partner, quotes to
// issue, pool size) comes in BENCH_RAW_WORKLOAD as JSON.
import { randomUUID } from 'node:crypto';
import { createPool, type PoolClient } from '@pwa/db';
import { endProcess } from '../lib/end-process';
import { LatencySamples, type Measured } from './measure';
import type { WorkloadQuote } from './quote';

export interface RawWorkload {
  databaseUrl: string;
  poolMax: number;
  quoteLifetimeSeconds: number;
  partnerId: string;
  quotes: WorkloadQuote[];
}

/** A run: `connections` closed loops for `durationSeconds`, or until `iterations` quotes have started. */
export interface RawRunRequest {
  connections: number;
  durationSeconds?: number;
  iterations?: number;
}

export type RawWorkerMessage = { ready: true } | { result: Measured } | { error: string };
type RawCommand = ({ cmd: 'run' } & RawRunRequest) | { cmd: 'stop' };

// services/quotes/src/store/fee-schedule-store.ts (findFeeSchedule)
const feeScheduleSql =
  'SELECT quote_type, currency, tiers, minimum_fee_minor, maximum_fee_minor, revision, updated_at FROM fee_schedules WHERE quote_type = $1 AND currency = $2';
// services/wallet/src/store/transactions.ts (withReadOnlySnapshot)
const beginSnapshotSql = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';
// services/wallet/src/store/user-store.ts (findUserByPhone)
const userSql = 'SELECT user_id, phone, name, account_status, kyc_status, tier, clock_timestamp() AS now FROM users WHERE phone = $1';
// services/wallet/src/store/user-store.ts (walletsOfUser, run by findUserByPhone and again by findWalletAccount)
const walletsSql = `SELECT w.user_id, w.currency, w.status, w.account_id, a.balance_minor
       FROM wallets w JOIN ledger_accounts a ON a.account_id = w.account_id
      WHERE w.user_id = $1
      ORDER BY w.currency`;
// services/wallet/src/store/account-store.ts (findPartnerAccount)
const partnerAccountSql =
  "SELECT partner_id, currency, account_id, balance_minor FROM ledger_accounts WHERE kind = 'partner' AND partner_id = $1 AND currency = $2";
// services/wallet/src/store/transfer-store.ts (databaseNow)
// services/wallet/src/store/limit-store.ts (listLimitRules)
const limitRulesSql = `SELECT tier, transaction_type, currency, per_transaction_max_minor, daily_max_minor, weekly_max_minor, monthly_max_minor, yearly_max_minor, per_hour_count_max, per_day_count_max FROM tier_limits
      WHERE ($1::text IS NULL OR tier = $1)
      ORDER BY array_position(ARRAY['Basic', 'Silver', 'Gold', 'Platinum'], tier), transaction_type, currency`;
// services/wallet/src/store/limit-store.ts (usageWithin)
const usageSql = `SELECT count(*) FILTER (WHERE posted_at >= $5)::int AS hour_count,
            count(*) FILTER (WHERE posted_at >= $6)::int AS day_count,
            coalesce(sum(amount_minor) FILTER (WHERE posted_at >= $6), 0)::text AS day_amount_minor,
            coalesce(sum(amount_minor) FILTER (WHERE posted_at >= $7), 0)::text AS week_amount_minor,
            coalesce(sum(amount_minor) FILTER (WHERE posted_at >= $8), 0)::text AS month_amount_minor,
            coalesce(sum(amount_minor) FILTER (WHERE posted_at >= $9), 0)::text AS year_amount_minor
       FROM transfers
      WHERE state = 'posted' AND user_id = $1 AND kind = $2 AND currency = $3
        AND posted_at >= $4 AND posted_at <= $10`;
// services/quotes/src/store/quote-store.ts (insertQuote)
const insertQuoteSql = `INSERT INTO quotes (quote_id, partner_id, quote_type, phone, currency, amount_minor, fee_minor, recipient_name,
                         recipient_account_status, recipient_has_wallet, partner_balance_minor, fee_schedule_revision, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now() + make_interval(secs => $13))
     RETURNING quote_id, partner_id, quote_type, phone, currency, amount_minor, fee_minor, total_debit_minor,
  recipient_name, recipient_account_status, recipient_has_wallet, partner_balance_minor, fee_schedule_revision,
  created_at, expires_at, used_at`;

/** services/wallet/src/domain/limit-windows.ts: the windows' starts, from the database clock. */
function limitWindowsAt(now: Date): Record<'hourStart' | 'dayStart' | 'weekStart' | 'monthStart' | 'yearStart' | 'earliestStart', Date> {
  const hourMs = 3_600_000;
  const dayMs = 24 * hourMs;
  const nowMs = now.getTime();
  const hourStart = new Date(Math.floor(nowMs / hourMs) * hourMs);
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const weekStart = new Date(dayStart.getTime() - ((now.getUTCDay() + 6) % 7) * dayMs);
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const yearStart = new Date(Date.UTC(now.getUTCFullYear(), 0, 1));
  const earliestStart = new Date(Math.min(weekStart.getTime(), yearStart.getTime()));
  return { hourStart, dayStart, weekStart, monthStart, yearStart, earliestStart };
}

/** This process's workload (checked by the parent, which wrote it). */
function readWorkload(): RawWorkload {
  const parsed = JSON.parse(process.env.BENCH_RAW_WORKLOAD || '{}') as Partial<RawWorkload>;
  return {
    databaseUrl: parsed.databaseUrl ?? '',
    poolMax: Number(parsed.poolMax || 10),
    quoteLifetimeSeconds: Number(parsed.quoteLifetimeSeconds || 600),
    partnerId: parsed.partnerId ?? '',
    quotes: parsed.quotes ?? [],
  };
}

const workload = readWorkload();
const quotesPool = createPool({ connectionString: workload.databaseUrl, applicationName: 'bench-raw-quotes', schema: 'quotes', maxConnections: workload.poolMax });
const walletPool = createPool({ connectionString: workload.databaseUrl, applicationName: 'bench-raw-wallet', schema: 'wallet', maxConnections: workload.poolMax });

interface UserRow {
  user_id: string;
  name: string;
  account_status: string;
  tier: string;
  now: Date;
}

/** The wallet's read-only check transaction, statement for statement, inside an open snapshot. */
async function walletCheckStatements(client: PoolClient, quote: WorkloadQuote): Promise<{ user: UserRow; partnerBalanceMinor: string }> {
  // The user with the database clock in one statement, then the user's wallets, as the wallet does.
  const user = (await client.query<UserRow>(userSql, [quote.phone])).rows[0];
  if (!user) throw new Error(`no user ${quote.phone}`);
  const wallet = (await client.query<{ currency: string }>(walletsSql, [user.user_id])).rows.find((row) => row.currency === quote.currency);
  const partnerAccount = (await client.query<{ balance_minor: string }>(partnerAccountSql, [workload.partnerId, quote.currency])).rows[0];
  if (!wallet) throw new Error(`no ${quote.currency} wallet for ${quote.phone}`);
  const now = user.now;
  const rules = (await client.query<{ transaction_type: string; currency: string }>(limitRulesSql, [user.tier])).rows;
  if (!rules.some((rule) => rule.transaction_type === quote.type && rule.currency === quote.currency)) throw new Error(`no limit rule for ${user.tier} ${quote.type} ${quote.currency}`);
  const windows = limitWindowsAt(now);
  await client.query(usageSql, [
    user.user_id,
    quote.type,
    quote.currency,
    windows.earliestStart,
    windows.hourStart,
    windows.dayStart,
    windows.weekStart,
    windows.monthStart,
    windows.yearStart,
    now,
  ]);
  return { user, partnerBalanceMinor: partnerAccount ? partnerAccount.balance_minor : '0' };
}

/** The wallet's check transaction (services/wallet/src/use-cases/check-transfer.ts). */
async function walletCheck(quote: WorkloadQuote): Promise<{ user: UserRow; partnerBalanceMinor: string }> {
  const client = await walletPool.connect();
  try {
    await client.query(beginSnapshotSql);
    const checked = await walletCheckStatements(client, quote);
    await client.query('COMMIT');
    return checked;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** One quote's database work, in the order issueQuote (services/quotes/src/use-cases/issue-quote.ts) does it. */
async function oneQuote(quote: WorkloadQuote): Promise<void> {
  const schedule = (await quotesPool.query<{ revision: number }>(feeScheduleSql, [quote.type, quote.currency])).rows[0];
  if (!schedule) throw new Error(`no fee schedule for ${quote.type} ${quote.currency}`);
  const checked = await walletCheck(quote);
  const inserted = await quotesPool.query(insertQuoteSql, [
    randomUUID(),
    workload.partnerId,
    quote.type,
    quote.phone,
    quote.currency,
    quote.amountMinor,
    quote.feeMinor,
    checked.user.name,
    checked.user.account_status,
    true,
    checked.partnerBalanceMinor,
    schedule.revision,
    workload.quoteLifetimeSeconds,
  ]);
  if (inserted.rowCount !== 1) throw new Error('INSERT … RETURNING returned no row');
}

/**
 * `connections` closed loops, each starting its next quote when the previous one is done, for
 * `durationSeconds` or until `iterations` quotes have started. Quotes are taken round-robin from
 * the workload, like the HTTP benchmark's requests.
 */
async function run({ connections, durationSeconds, iterations }: RawRunRequest): Promise<Measured> {
  const { quotes } = workload;
  const samples = new LatencySamples();
  let next = 0;
  let ok = 0;
  let errors = 0;
  let firstFailure: string | undefined;
  const startedAt = process.hrtime.bigint();
  const deadline = durationSeconds ? startedAt + BigInt(Math.round(durationSeconds * 1e9)) : undefined;
  const more = (): boolean => (iterations === undefined || next < iterations) && (deadline === undefined || process.hrtime.bigint() < deadline);
  const loop = async (): Promise<void> => {
    while (more()) {
      const quote = quotes[next % quotes.length];
      next += 1;
      if (quote === undefined) break;
      const began = process.hrtime.bigint();
      try {
        await oneQuote(quote);
        ok += 1;
        samples.add(Number(process.hrtime.bigint() - began) / 1e6);
      } catch (error) {
        errors += 1;
        firstFailure ??= (error as Error).message;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsedSeconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
  const { 50: p50Ms, 90: p90Ms, 99: p99Ms } = samples.percentiles([50, 90, 99]);
  return { requestsPerSecond: ok / elapsedSeconds, p50Ms, p90Ms, p99Ms, ok, non2xx: 0, errors, timeouts: 0, durationSeconds: elapsedSeconds, firstFailure };
}

async function stop(): Promise<void> {
  await Promise.allSettled([quotesPool.end(), walletPool.end()]);
  endProcess(0);
}

const send = (message: RawWorkerMessage): void => void process.send?.(message);

process.on('message', (raw) => {
  const message = raw as RawCommand;
  if (message.cmd === 'stop') {
    void stop();
    return;
  }
  run(message).then(
    (result) => send({ result }),
    (error: unknown) => send({ error: (error as Error).message }),
  );
});
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
process.on('disconnect', () => void stop());
send({ ready: true });
