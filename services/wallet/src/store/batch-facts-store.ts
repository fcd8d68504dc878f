import { minorFromDatabase, type Currency } from '@pwa/money';
import type { PoolClient } from '@pwa/db';
import { limitLookupOf, type LimitLookup, type LimitUsage } from '../domain/tier-limits';
import type { LimitWindows } from '../domain/limit-windows';
import type { TransactionType } from '../domain/transaction-type';
import type { AccountStatus, KycStatus, Tier, WalletStatus } from '../domain/user';
import { toRule, toUsage, usageSelect, windowParameters, type TierLimitRow, type UsageRow } from './limit-store';
import { toTransferRecord, type TransferRecord, type TransferRow } from './transfer-store';

/*
 * The facts of a batch of postings (decision 0054), read set-based under the batch's locks: two
 * statements for any number of items, where posting the items one by one takes two per item.
 * Their order is the single posting's, widened: every user row of the batch first (statement 1),
 * then every ledger account of the batch in ascending id (statement 2), then the fee revenue
 * account, last, by the entries' trigger.
 */

export interface BatchUser {
  userId: string;
  phone: string;
  name: string;
  accountStatus: AccountStatus;
  kycStatus: KycStatus;
  tier: Tier;
}

interface BatchUserRow {
  user_id: string;
  phone: string;
  name: string;
  account_status: AccountStatus;
  kyc_status: KycStatus;
  tier: Tier;
}

/**
 * Statement 1: locks the rows of the users with these phones, in ascending user id. The order is
 * the row's own key: it never changes, unlike a phone an operator may correct, so two batches
 * sharing users always take them in the same order and queue instead of deadlocking; a single
 * posting holds one user row when it waits for an account, so it closes no cycle with a batch
 * either. (FOR UPDATE locks rows as the sort hands them out, so ORDER BY is the lock order.)
 */
export async function lockUsersByPhones(client: PoolClient, phones: readonly string[]): Promise<BatchUser[]> {
  return selectUsersByPhones(client, phones, { lock: true });
}

/** Statement 1 of the read-only batch check: the same users, read in the caller's snapshot, locking nothing. */
export async function readUsersByPhones(client: PoolClient, phones: readonly string[]): Promise<BatchUser[]> {
  return selectUsersByPhones(client, phones, { lock: false });
}

async function selectUsersByPhones(client: PoolClient, phones: readonly string[], { lock }: { lock: boolean }): Promise<BatchUser[]> {
  const result = await client.query<BatchUserRow>(
    `SELECT u.user_id::text AS user_id, u.phone, u.name, u.account_status, u.kyc_status, u.tier FROM users u WHERE u.phone = ANY ($1::text[]) ORDER BY u.user_id${lock ? ' FOR UPDATE' : ''}`,
    [[...new Set(phones)]],
  );
  return result.rows.map((row) => ({ userId: row.user_id, phone: row.phone, name: row.name, accountStatus: row.account_status, kycStatus: row.kyc_status, tier: row.tier }));
}

export interface BatchRecipientReading {
  wallet: { status: WalletStatus; accountId: string } | undefined;
  limits: LimitLookup;
  usage: LimitUsage;
}

export interface BatchFactsReading {
  /** Records of the batch's transfer ids that an earlier call posted or cancelled. */
  earlier: TransferRecord[];
  /** By user id: the wallet in the currency, the tier's rule and the usage in the windows asked for. */
  recipients: Map<string, BatchRecipientReading>;
  partnerAccountId: string | undefined;
  feeRevenueAccountId: string | undefined;
  /** Balances of the partner's and the users' wallet accounts (locked by the statement when it locks). */
  balances: Map<string, bigint>;
  /** The database clock, read after every lock of the batch was granted (or in the check's snapshot). */
  now: Date;
}

/** A transfer row as JSON: amounts and times as text, so no precision is lost on the way. */
interface EarlierJson extends Omit<TransferRow, 'posted_at' | 'cancelled_at'> {
  posted_at_ms: string | null;
  cancelled_at_ms: string | null;
}

interface RecipientJson {
  user_id: string;
  wallet_status: WalletStatus | null;
  wallet_account_id: string | null;
  rule: TierLimitRow | null;
  tier_has_rules: boolean;
  usage: UsageRow;
}

interface BatchFactsRow {
  account_balances: { account_id: string; balance_minor: string }[] | null;
  earlier: EarlierJson[] | null;
  recipients: RecipientJson[] | null;
  partner_account_id: string | null;
  fee_revenue_account_id: string | null;
  now: Date;
}

/**
 * Statement 2, after every user lock of the batch is granted (statement 1): locks the partner's
 * and the users' wallet accounts in ascending id, and reads, in the same snapshot, what earlier
 * calls left under the batch's transfer ids, each user's wallet, tier rule and usage, the account
 * ids and the clock. Each set is one JSON aggregate, so the statement answers one row however many
 * items the batch has. The snapshot argument is the single posting's (store/transfer-facts-store.ts):
 * it starts after the user locks, so it sees every posting of these users that the batch waited
 * for; the locked accounts are read in their newest version. The locking scan takes its ids from
 * an InitPlan (= ANY (ARRAY(...))) for the reason given there.
 */
export async function readBatchFactsAndLockAccounts(client: PoolClient, intent: BatchFactsIntent, windows: LimitWindows): Promise<BatchFactsReading> {
  return readBatchFacts(client, intent, windows, { lock: true });
}

/**
 * Statement 2 of the read-only batch check (decision 0055): the same facts by the same SQL, read
 * without FOR UPDATE, so in the caller's snapshot (a read-only REPEATABLE READ transaction) and
 * holding no row lock. A check has no transfer ids: pass none, and `earlier` is empty.
 */
export async function readBatchFactsWithoutLocks(client: PoolClient, intent: BatchFactsIntent, windows: LimitWindows): Promise<BatchFactsReading> {
  return readBatchFacts(client, intent, windows, { lock: false });
}

export interface BatchFactsIntent {
  transferIds: readonly string[];
  userIds: readonly string[];
  partnerId: string;
  currency: Currency;
  type: TransactionType;
}

async function readBatchFacts(client: PoolClient, intent: BatchFactsIntent, windows: LimitWindows, { lock }: { lock: boolean }): Promise<BatchFactsReading> {
  const epochMs = (column: string): string => `(floor(extract(epoch FROM ${column}) * 1000))::bigint::text`;
  // The CTE keeps its name "locked" when it locks: it is how a waiting batch is recognised (pg_stat_activity).
  const accounts = lock ? 'locked' : 'accounts';
  const result = await client.query<BatchFactsRow>(
    `WITH ${accounts} AS (
       SELECT account_id, balance_minor FROM ledger_accounts
        WHERE account_id = ANY (ARRAY(
          SELECT w.account_id FROM wallets w WHERE w.user_id = ANY ($2::uuid[]) AND w.currency = $4
          UNION ALL
          SELECT p.account_id FROM ledger_accounts p WHERE p.kind = 'partner' AND p.partner_id = $3 AND p.currency = $4))
        ORDER BY account_id${lock ? '\n        FOR UPDATE' : ''}
     )
     SELECT (SELECT json_agg(json_build_object('account_id', account_id::text, 'balance_minor', balance_minor::text)) FROM ${accounts}) AS account_balances,
            (SELECT json_agg(json_build_object(
                      'transfer_id', t.transfer_id, 'state', t.state, 'kind', t.kind, 'transaction_id', t.transaction_id,
                      'user_id', t.user_id, 'partner_id', t.partner_id, 'currency', t.currency,
                      'amount_minor', t.amount_minor::text, 'fee_minor', t.fee_minor::text, 'reference', t.reference,
                      'posted_at_ms', ${epochMs('t.posted_at')}, 'cancelled_at_ms', ${epochMs('t.cancelled_at')}))
               FROM transfers t WHERE t.transfer_id = ANY ($1::uuid[])) AS earlier,
            (SELECT json_agg(json_build_object(
                      'user_id', u.user_id, 'wallet_status', w.status, 'wallet_account_id', w.account_id::text,
                      'rule', CASE WHEN r.tier IS NULL THEN NULL ELSE json_build_object(
                        'tier', r.tier, 'transaction_type', r.transaction_type, 'currency', r.currency,
                        'per_transaction_max_minor', r.per_transaction_max_minor::text, 'daily_max_minor', r.daily_max_minor::text,
                        'weekly_max_minor', r.weekly_max_minor::text, 'monthly_max_minor', r.monthly_max_minor::text,
                        'yearly_max_minor', r.yearly_max_minor::text, 'per_hour_count_max', r.per_hour_count_max,
                        'per_day_count_max', r.per_day_count_max) END,
                      'tier_has_rules', EXISTS (SELECT 1 FROM tier_limits any_rule WHERE any_rule.tier = u.tier),
                      'usage', to_json(usage)))
               FROM users u
               LEFT JOIN wallets w ON w.user_id = u.user_id AND w.currency = $4
               LEFT JOIN tier_limits r ON r.tier = u.tier AND r.transaction_type = $5 AND r.currency = $4
               CROSS JOIN LATERAL (${usageSelect({ userId: 'u.user_id', transactionType: '$5', currency: '$4' }, 6)}) AS usage
              WHERE u.user_id = ANY ($2::uuid[])) AS recipients,
            (SELECT p.account_id::text FROM ledger_accounts p WHERE p.kind = 'partner' AND p.partner_id = $3 AND p.currency = $4) AS partner_account_id,
            (SELECT f.account_id::text FROM ledger_accounts f WHERE f.kind = 'fee_revenue' AND f.currency = $4) AS fee_revenue_account_id,
            clock_timestamp() AS now`,
    [[...intent.transferIds], [...intent.userIds], intent.partnerId, intent.currency, intent.type, ...windowParameters(windows)],
  );
  const row = result.rows[0];
  if (!row) throw new Error('the batch facts query returned no row');
  return {
    earlier: (row.earlier ?? []).map(earlierRecordOf),
    recipients: new Map((row.recipients ?? []).map((recipient) => [recipient.user_id, recipientReadingOf(recipient)])),
    partnerAccountId: row.partner_account_id ?? undefined,
    feeRevenueAccountId: row.fee_revenue_account_id ?? undefined,
    balances: new Map((row.account_balances ?? []).map((account) => [account.account_id, minorFromDatabase(account.balance_minor)])),
    now: row.now,
  };
}

function earlierRecordOf(json: EarlierJson): TransferRecord {
  const { posted_at_ms, cancelled_at_ms, ...rest } = json;
  return toTransferRecord({
    ...rest,
    posted_at: posted_at_ms === null ? null : new Date(Number(posted_at_ms)),
    cancelled_at: cancelled_at_ms === null ? null : new Date(Number(cancelled_at_ms)),
  });
}

function recipientReadingOf(json: RecipientJson): BatchRecipientReading {
  return {
    wallet: json.wallet_status === null || json.wallet_account_id === null ? undefined : { status: json.wallet_status, accountId: json.wallet_account_id },
    limits: limitLookupOf(json.rule === null ? undefined : toRule(json.rule), json.tier_has_rules),
    usage: toUsage(json.usage),
  };
}
