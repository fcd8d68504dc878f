import { minorFromDatabase, type Currency } from '@pwa/money';
import type { PoolClient, Queryable } from '@pwa/db';
import type { TierLimitRule, LimitUsage } from '../domain/tier-limits';
import type { LimitWindows } from '../domain/limit-windows';
import type { Tier } from '../domain/user';
import type { TransactionType } from '../domain/transaction-type';

export interface TierLimitRow {
  tier: Tier;
  transaction_type: TransactionType;
  currency: Currency;
  per_transaction_max_minor: string;
  daily_max_minor: string;
  weekly_max_minor: string;
  monthly_max_minor: string;
  yearly_max_minor: string;
  per_hour_count_max: number;
  per_day_count_max: number;
}

export function toRule(row: TierLimitRow): TierLimitRule {
  return {
    tier: row.tier,
    transactionType: row.transaction_type,
    currency: row.currency,
    perTransactionMaxMinor: minorFromDatabase(row.per_transaction_max_minor),
    dailyMaxMinor: minorFromDatabase(row.daily_max_minor),
    weeklyMaxMinor: minorFromDatabase(row.weekly_max_minor),
    monthlyMaxMinor: minorFromDatabase(row.monthly_max_minor),
    yearlyMaxMinor: minorFromDatabase(row.yearly_max_minor),
    perHourCountMax: row.per_hour_count_max,
    perDayCountMax: row.per_day_count_max,
  };
}

export const ruleColumns =
  'tier, transaction_type, currency, per_transaction_max_minor, daily_max_minor, weekly_max_minor, monthly_max_minor, yearly_max_minor, per_hour_count_max, per_day_count_max';

/** Every rule, or one tier's, in a stable order (tier as configured order, then type, then currency). */
export async function listLimitRules(db: Queryable, tier?: Tier): Promise<TierLimitRule[]> {
  const result = await db.query<TierLimitRow>(
    `SELECT ${ruleColumns} FROM tier_limits
      WHERE ($1::text IS NULL OR tier = $1)
      ORDER BY array_position(ARRAY['Basic', 'Silver', 'Gold', 'Platinum'], tier), transaction_type, currency`,
    [tier ?? null],
  );
  return result.rows.map(toRule);
}

export async function lockLimitRule(
  client: PoolClient,
  tier: Tier,
  transactionType: TransactionType,
  currency: Currency,
): Promise<TierLimitRule | undefined> {
  const result = await client.query<TierLimitRow>(
    `SELECT ${ruleColumns} FROM tier_limits WHERE tier = $1 AND transaction_type = $2 AND currency = $3 FOR UPDATE`,
    [tier, transactionType, currency],
  );
  const row = result.rows[0];
  return row ? toRule(row) : undefined;
}

export async function upsertLimitRule(client: PoolClient, rule: TierLimitRule): Promise<void> {
  await client.query(
    `INSERT INTO tier_limits (${ruleColumns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (tier, transaction_type, currency) DO UPDATE SET
       per_transaction_max_minor = EXCLUDED.per_transaction_max_minor, daily_max_minor = EXCLUDED.daily_max_minor,
       weekly_max_minor = EXCLUDED.weekly_max_minor, monthly_max_minor = EXCLUDED.monthly_max_minor,
       yearly_max_minor = EXCLUDED.yearly_max_minor, per_hour_count_max = EXCLUDED.per_hour_count_max,
       per_day_count_max = EXCLUDED.per_day_count_max, updated_at = now()`,
    [
      rule.tier,
      rule.transactionType,
      rule.currency,
      rule.perTransactionMaxMinor.toString(),
      rule.dailyMaxMinor.toString(),
      rule.weeklyMaxMinor.toString(),
      rule.monthlyMaxMinor.toString(),
      rule.yearlyMaxMinor.toString(),
      rule.perHourCountMax,
      rule.perDayCountMax,
    ],
  );
}

export interface UsageRow {
  hour_count: number;
  day_count: number;
  day_amount_minor: string;
  week_amount_minor: string;
  month_amount_minor: string;
  year_amount_minor: string;
}

/**
 * The usage query of usageWithin, for statements that read it together with other facts. `subject`
 * gives the SQL for the user id, transaction type and currency (parameters or columns of the outer
 * statement); the six window starts are parameters from `firstWindowParameter` on, in the order of
 * windowParameters. Postings count up to the statement's start: a posting this one waited for (by
 * the user's lock) committed before it, so it is in; none of the user's can come later.
 */
export function usageSelect(subject: { userId: string; transactionType: string; currency: string }, firstWindowParameter: number): string {
  const p = (offset: number): string => `$${firstWindowParameter + offset}::timestamptz`;
  return `SELECT count(*) FILTER (WHERE posted_at >= ${p(1)})::int AS hour_count,
            count(*) FILTER (WHERE posted_at >= ${p(2)})::int AS day_count,
            coalesce(sum(amount_minor) FILTER (WHERE posted_at >= ${p(2)}), 0)::text AS day_amount_minor,
            coalesce(sum(amount_minor) FILTER (WHERE posted_at >= ${p(3)}), 0)::text AS week_amount_minor,
            coalesce(sum(amount_minor) FILTER (WHERE posted_at >= ${p(4)}), 0)::text AS month_amount_minor,
            coalesce(sum(amount_minor) FILTER (WHERE posted_at >= ${p(5)}), 0)::text AS year_amount_minor
       FROM transfers
      WHERE state = 'posted' AND user_id = ${subject.userId} AND kind = ${subject.transactionType} AND currency = ${subject.currency}
        AND posted_at >= ${p(0)} AND posted_at <= statement_timestamp()`;
}

/** The window starts in the order usageSelect numbers them. */
export function windowParameters(windows: LimitWindows): Date[] {
  return [windows.earliestStart, windows.hourStart, windows.dayStart, windows.weekStart, windows.monthStart, windows.yearStart];
}

export function toUsage(row: UsageRow): LimitUsage {
  return {
    hourCount: row.hour_count,
    dayCount: row.day_count,
    dayAmountMinor: minorFromDatabase(row.day_amount_minor),
    weekAmountMinor: minorFromDatabase(row.week_amount_minor),
    monthAmountMinor: minorFromDatabase(row.month_amount_minor),
    yearAmountMinor: minorFromDatabase(row.year_amount_minor),
  };
}

/**
 * The user's usage in every window at once: their postings of this type and currency (all
 * partners) from the earliest window start up to now. Only postings count, so a quote or a
 * refused transfer never consumes budget.
 */
export async function usageWithin(
  db: Queryable,
  userId: string,
  transactionType: TransactionType,
  currency: Currency,
  windows: LimitWindows,
): Promise<LimitUsage> {
  const result = await db.query<UsageRow>(usageSelect({ userId: '$1', transactionType: '$2', currency: '$3' }, 4), [
    userId,
    transactionType,
    currency,
    ...windowParameters(windows),
  ]);
  const row = result.rows[0];
  if (!row) throw new Error('usage query returned no row');
  return toUsage(row);
}
