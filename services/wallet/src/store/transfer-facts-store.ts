import { minorFromDatabase, type Currency } from '@pwa/money';
import type { PoolClient, Queryable } from '@pwa/db';
import { limitLookupOf, noUsage, type LimitLookup, type LimitUsage } from '../domain/tier-limits';
import type { LimitWindows } from '../domain/limit-windows';
import { limitedTypeOf, type MovementType, type TransactionType } from '../domain/transaction-type';
import type { AccountStatus, KycStatus, Tier, WalletStatus } from '../domain/user';
import { toRule, toUsage, usageSelect, windowParameters, type TierLimitRow, type UsageRow } from './limit-store';
import { toTransferRecord, transferColumnList, type TransferRecord, type TransferRow } from './transfer-store';

/*
 * The facts a check or a posting needs, read in as few statements as the rules allow: every
 * statement is a round trip, and round trips are most of a posting's cost. Each function says
 * which statement of the posting it is and why it cannot be merged with its neighbours.
 *
 * A refund has no limits (decision 0053): for one, neither statement reads the tier's rule or the
 * user's usage (their columns, joins and parameters are left out), so no limit fact can refuse it.
 */

/** The one limit rule of a tier, type and currency, and whether the tier has any rule at all. */
const ruleSelectList = `r.tier AS rule_tier, r.transaction_type AS rule_transaction_type, r.currency AS rule_currency,
       r.per_transaction_max_minor, r.daily_max_minor, r.weekly_max_minor, r.monthly_max_minor, r.yearly_max_minor,
       r.per_hour_count_max, r.per_day_count_max`;

interface RuleColumns {
  rule_tier: Tier | null;
  rule_transaction_type: TransactionType | null;
  rule_currency: Currency | null;
  per_transaction_max_minor: string | null;
  daily_max_minor: string | null;
  weekly_max_minor: string | null;
  monthly_max_minor: string | null;
  yearly_max_minor: string | null;
  per_hour_count_max: number | null;
  per_day_count_max: number | null;
  tier_has_rules: boolean | null;
}

function limitLookupFromRow(row: RuleColumns): LimitLookup {
  if (row.rule_tier === null || row.rule_transaction_type === null || row.rule_currency === null) {
    return limitLookupOf(undefined, row.tier_has_rules === true);
  }
  const ruleRow: TierLimitRow = {
    tier: row.rule_tier,
    transaction_type: row.rule_transaction_type,
    currency: row.rule_currency,
    per_transaction_max_minor: row.per_transaction_max_minor ?? '0',
    daily_max_minor: row.daily_max_minor ?? '0',
    weekly_max_minor: row.weekly_max_minor ?? '0',
    monthly_max_minor: row.monthly_max_minor ?? '0',
    yearly_max_minor: row.yearly_max_minor ?? '0',
    per_hour_count_max: row.per_hour_count_max ?? 0,
    per_day_count_max: row.per_day_count_max ?? 0,
  };
  return limitLookupOf(toRule(ruleRow), true);
}

/** What a statement reads of the limits: the rule, whether the tier has any, the usage; nothing for an unlimited movement. */
interface LimitReading {
  limits: LimitLookup | undefined;
  usage: LimitUsage;
}

function limitReadingOf(limitedType: TransactionType | undefined, row: RuleColumns & Partial<UsageRow>): LimitReading {
  return limitedType === undefined ? { limits: undefined, usage: noUsage } : { limits: limitLookupFromRow(row), usage: usageOf(row) };
}

export interface CheckFacts {
  user: { userId: string; phone: string; name: string; accountStatus: AccountStatus; kycStatus: KycStatus; tier: Tier } | undefined;
  wallet: { status: WalletStatus; balanceMinor: bigint } | undefined;
  partnerBalanceMinor: bigint;
  /** The tier's rule; undefined for a movement without limits (a refund). */
  limits: LimitLookup | undefined;
  /** The user's usage in the windows asked for (those of the application's clock); none for a refund. */
  usage: LimitUsage;
  /** The database clock, the one that counts: the caller checks the windows asked for are its windows. */
  now: Date;
}

interface CheckFactsRow extends RuleColumns, Partial<UsageRow> {
  user_id: string | null;
  phone: string | null;
  name: string | null;
  account_status: AccountStatus | null;
  kyc_status: KycStatus | null;
  tier: Tier | null;
  wallet_status: WalletStatus | null;
  wallet_balance_minor: string | null;
  partner_balance_minor: string | null;
  now: Date;
}

/**
 * Everything a read-only check needs, by one statement (one snapshot, no transaction): the user,
 * their wallet in the currency with its balance, the partner's balance, the tier's rule, the
 * user's limit usage in the given windows and the database clock. The windows come from the
 * application's clock, because the database's is only known once the statement runs; the caller
 * keeps the usage only when the database clock falls in the same windows (nearly always).
 */
export async function readCheckFacts(
  db: Queryable,
  intent: { phone: string; partnerId: string; currency: Currency; type: MovementType },
  windows: LimitWindows,
): Promise<CheckFacts> {
  const limitedType = limitedTypeOf(intent.type);
  const result = await db.query<CheckFactsRow>(
    `SELECT u.user_id, u.phone, u.name, u.account_status, u.kyc_status, u.tier,
            w.status AS wallet_status, wa.balance_minor::text AS wallet_balance_minor,
            p.balance_minor::text AS partner_balance_minor,
            ${limitedType === undefined ? '' : `${ruleSelectList},
            EXISTS (SELECT 1 FROM tier_limits t WHERE t.tier = u.tier) AS tier_has_rules,
            usage.*,`}
            clock_timestamp() AS now
       FROM (VALUES (1)) AS one (row_number)
       LEFT JOIN users u ON u.phone = $1
       LEFT JOIN wallets w ON w.user_id = u.user_id AND w.currency = $3
       LEFT JOIN ledger_accounts wa ON wa.account_id = w.account_id
       LEFT JOIN ledger_accounts p ON p.kind = 'partner' AND p.partner_id = $2 AND p.currency = $3
       ${limitedType === undefined ? '' : `LEFT JOIN tier_limits r ON r.tier = u.tier AND r.transaction_type = $4 AND r.currency = $3
       LEFT JOIN LATERAL (${usageSelect({ userId: 'u.user_id', transactionType: '$4', currency: '$3' }, 5)}) AS usage ON true`}`,
    [intent.phone, intent.partnerId, intent.currency, ...(limitedType === undefined ? [] : [limitedType, ...windowParameters(windows)])],
  );
  const row = result.rows[0];
  if (!row) throw new Error('the check facts query returned no row');
  return {
    user:
      row.user_id === null || row.phone === null || row.name === null || row.account_status === null || row.kyc_status === null || row.tier === null
        ? undefined
        : { userId: row.user_id, phone: row.phone, name: row.name, accountStatus: row.account_status, kycStatus: row.kyc_status, tier: row.tier },
    wallet:
      row.wallet_status === null || row.wallet_balance_minor === null
        ? undefined
        : { status: row.wallet_status, balanceMinor: minorFromDatabase(row.wallet_balance_minor) },
    partnerBalanceMinor: row.partner_balance_minor === null ? 0n : minorFromDatabase(row.partner_balance_minor),
    ...limitReadingOf(limitedType, row),
    now: row.now,
  };
}

function usageOf(row: Partial<UsageRow>): LimitUsage {
  const { hour_count, day_count, day_amount_minor, week_amount_minor, month_amount_minor, year_amount_minor } = row;
  if (hour_count == null || day_count == null || day_amount_minor == null || week_amount_minor == null || month_amount_minor == null || year_amount_minor == null) {
    throw new Error('the usage columns are missing');
  }
  return toUsage({ hour_count, day_count, day_amount_minor, week_amount_minor, month_amount_minor, year_amount_minor });
}

export interface PostingFacts {
  /** The transfer id's record when an earlier call (committed while this one waited for the user's lock) claimed it. */
  earlier: TransferRecord | undefined;
  wallet: { status: WalletStatus; accountId: string } | undefined;
  partnerAccountId: string | undefined;
  feeRevenueAccountId: string | undefined;
  /** The tier's rule; undefined for a movement without limits (a refund). */
  limits: LimitLookup | undefined;
  /** Balances of the wallet's and the partner's ledger accounts, locked by this statement. */
  lockedBalances: Map<string, bigint>;
  /** The user's usage in the windows asked for (those of the application's clock); none for a refund. */
  usage: LimitUsage;
  /** The database clock, read after the user's lock was granted. */
  now: Date;
}

const transferSelectList = transferColumnList.map((column) => `t.${column} AS transfer_${column}`).join(', ');

type PostingFactsRow = RuleColumns &
  Partial<UsageRow> & { [column in `transfer_${keyof TransferRow}`]: unknown } & {
    wallet_status: WalletStatus | null;
    wallet_account_id: string | null;
    partner_account_id: string | null;
    fee_revenue_account_id: string | null;
    locked_account_ids: string[] | null;
    locked_balances_minor: string[] | null;
    now: Date;
  };

function transferOf(row: PostingFactsRow): TransferRecord | undefined {
  if (row.transfer_transfer_id === null) return undefined;
  const transferRow = Object.fromEntries(transferColumnList.map((column) => [column, row[`transfer_${column}`]])) as unknown as TransferRow;
  return toTransferRecord(transferRow);
}

/**
 * The posting's second statement, after the user's row lock (the first) is granted. It reads what
 * an earlier call with the same transfer id left, the user's wallet account, the partner's and the
 * fee revenue's account ids, the tier's rule, the user's usage in the given windows and the clock,
 * and locks the wallet's and the partner's ledger accounts in ascending id (the one order every
 * transaction uses, so postings sharing an account queue instead of deadlocking). It must start
 * after the user's lock: under READ COMMITTED a statement sees what committed before it began, so
 * only a statement that starts after the lock sees a posting of this user that this one waited for.
 * (A wait for an account lock here needs no new snapshot: a locked row is read in its newest
 * version, and the user's own postings, the only ones that change the other facts that matter,
 * are already serialised by the user's lock.) The windows come from the application's clock; the
 * caller keeps the usage only when the database clock falls in the same windows.
 */
export async function readPostingFactsAndLockAccounts(
  client: PoolClient,
  intent: { transferId: string; userId: string; tier: Tier; partnerId: string; currency: Currency; type: MovementType },
  windows: LimitWindows,
): Promise<PostingFacts> {
  const limitedType = limitedTypeOf(intent.type);
  const result = await client.query<PostingFactsRow>(
    `WITH locked AS (
       -- The ids come from an InitPlan (= ANY (ARRAY(...))), run once before the locking scan, so
       -- that scan reads ledger_accounts alone: a row another posting moved while this one waited
       -- is re-read in its newest version and kept. Joined to a subquery over the same table
       -- (IN (...)), some plans dropped that row on the recheck, and the partner's balance read 0.
       SELECT account_id, balance_minor FROM ledger_accounts
        WHERE account_id = ANY (ARRAY(
          SELECT w.account_id FROM wallets w WHERE w.user_id = $2 AND w.currency = $4
          UNION ALL
          SELECT p.account_id FROM ledger_accounts p WHERE p.kind = 'partner' AND p.partner_id = $3 AND p.currency = $4))
        ORDER BY account_id
        FOR UPDATE
     ), balances AS (
       SELECT array_agg(account_id::text) AS locked_account_ids, array_agg(balance_minor::text) AS locked_balances_minor FROM locked
     )
     SELECT ${transferSelectList},
            w.status AS wallet_status, w.account_id::text AS wallet_account_id,
            p.account_id::text AS partner_account_id,
            f.account_id::text AS fee_revenue_account_id,
            ${limitedType === undefined ? '' : `${ruleSelectList},
            EXISTS (SELECT 1 FROM tier_limits t WHERE t.tier = $5) AS tier_has_rules,
            usage.*,`}
            balances.locked_account_ids, balances.locked_balances_minor,
            clock_timestamp() AS now
       FROM balances
       ${limitedType === undefined ? '' : `CROSS JOIN LATERAL (${usageSelect({ userId: '$2', transactionType: '$6', currency: '$4' }, 7)}) AS usage`}
       LEFT JOIN transfers t ON t.transfer_id = $1
       LEFT JOIN wallets w ON w.user_id = $2 AND w.currency = $4
       LEFT JOIN ledger_accounts p ON p.kind = 'partner' AND p.partner_id = $3 AND p.currency = $4
       LEFT JOIN ledger_accounts f ON f.kind = 'fee_revenue' AND f.currency = $4
       ${limitedType === undefined ? '' : 'LEFT JOIN tier_limits r ON r.tier = $5 AND r.transaction_type = $6 AND r.currency = $4'}`,
    [
      intent.transferId, intent.userId, intent.partnerId, intent.currency,
      ...(limitedType === undefined ? [] : [intent.tier, limitedType, ...windowParameters(windows)]),
    ],
  );
  const row = result.rows[0];
  if (!row) throw new Error('the posting facts query returned no row');
  const ids = row.locked_account_ids ?? [];
  const balances = row.locked_balances_minor ?? [];
  return {
    earlier: transferOf(row),
    wallet: row.wallet_status === null || row.wallet_account_id === null ? undefined : { status: row.wallet_status, accountId: row.wallet_account_id },
    partnerAccountId: row.partner_account_id ?? undefined,
    feeRevenueAccountId: row.fee_revenue_account_id ?? undefined,
    ...limitReadingOf(limitedType, row),
    lockedBalances: new Map(ids.map((id, index) => [id, minorFromDatabase(balances[index] ?? '')])),
    now: row.now,
  };
}
