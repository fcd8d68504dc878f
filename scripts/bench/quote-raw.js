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
// Runs as a child process of scripts/bench/quote.js (child_process.fork), so its event loop is
// its own, like the services'. Messages in: { cmd: 'run', connections, durationSeconds } or
// { cmd: 'run', connections, iterations }, and { cmd: 'stop' }. Messages out: { ready: true },
// then one { result } or { error } per run. The workload (partner, quotes to issue, pool size)
// comes in BENCH_RAW_WORKLOAD as JSON.
'use strict';
const { endProcess } = require('../lib/end-process');
const { randomUUID } = require('node:crypto');
const { createPool } = require('@pwa/db');
const { LatencySamples } = require('./measure');

const workload = JSON.parse(process.env.BENCH_RAW_WORKLOAD || '{}');
const poolMax = Number(workload.poolMax || 10);
const quoteLifetimeSeconds = Number(workload.quoteLifetimeSeconds || 600);

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
function limitWindowsAt(now) {
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

const quotesPool = createPool({ connectionString: workload.databaseUrl, applicationName: 'bench-raw-quotes', schema: 'quotes', maxConnections: poolMax });
const walletPool = createPool({ connectionString: workload.databaseUrl, applicationName: 'bench-raw-wallet', schema: 'wallet', maxConnections: poolMax });

/** The wallet's check transaction (services/wallet/src/use-cases/check-transfer.ts), statement for statement. */
async function walletCheck(quote) {
  const client = await walletPool.connect();
  try {
    await client.query(beginSnapshotSql);
    // The user with the database clock in one statement, then the user's wallets, as the wallet does.
    const user = (await client.query(userSql, [quote.phone])).rows[0];
    if (!user) throw new Error(`no user ${quote.phone}`);
    const wallet = (await client.query(walletsSql, [user.user_id])).rows.find((row) => row.currency === quote.currency);
    const partnerAccount = (await client.query(partnerAccountSql, [workload.partnerId, quote.currency])).rows[0];
    if (!wallet) throw new Error(`no ${quote.currency} wallet for ${quote.phone}`);
    const now = user.now;
    const rules = (await client.query(limitRulesSql, [user.tier])).rows;
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
    await client.query('COMMIT');
    return { user, partnerBalanceMinor: partnerAccount ? partnerAccount.balance_minor : '0' };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** One quote's database work, in the order issueQuote (services/quotes/src/use-cases/issue-quote.ts) does it. */
async function oneQuote(quote) {
  const schedule = (await quotesPool.query(feeScheduleSql, [quote.type, quote.currency])).rows[0];
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
    quoteLifetimeSeconds,
  ]);
  if (inserted.rowCount !== 1) throw new Error('INSERT … RETURNING returned no row');
}

/**
 * `connections` closed loops, each starting its next quote when the previous one is done, for
 * `durationSeconds` or until `iterations` quotes have started. Quotes are taken round-robin from
 * the workload, like the HTTP benchmark's requests.
 */
async function run({ connections, durationSeconds, iterations }) {
  const quotes = workload.quotes;
  const samples = new LatencySamples();
  let next = 0;
  let ok = 0;
  let errors = 0;
  let firstFailure;
  const startedAt = process.hrtime.bigint();
  const deadline = durationSeconds ? startedAt + BigInt(Math.round(durationSeconds * 1e9)) : undefined;
  const more = () => (iterations === undefined || next < iterations) && (deadline === undefined || process.hrtime.bigint() < deadline);
  const loop = async () => {
    while (more()) {
      const quote = quotes[next % quotes.length];
      next += 1;
      const began = process.hrtime.bigint();
      try {
        await oneQuote(quote);
        ok += 1;
        samples.add(Number(process.hrtime.bigint() - began) / 1e6);
      } catch (error) {
        errors += 1;
        if (firstFailure === undefined) firstFailure = error.message;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsedSeconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
  const { 50: p50Ms, 90: p90Ms, 99: p99Ms } = samples.percentiles([50, 90, 99]);
  return { requestsPerSecond: ok / elapsedSeconds, p50Ms, p90Ms, p99Ms, ok, non2xx: 0, errors, timeouts: 0, durationSeconds: elapsedSeconds, firstFailure };
}

async function stop() {
  await Promise.allSettled([quotesPool.end(), walletPool.end()]);
  endProcess(0);
}

process.on('message', (message) => {
  if (message.cmd === 'stop') {
    void stop();
    return;
  }
  if (message.cmd === 'run') {
    run(message).then(
      (result) => process.send({ result }),
      (error) => process.send({ error: error.message }),
    );
  }
});
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
process.on('disconnect', () => void stop());
process.send({ ready: true });
