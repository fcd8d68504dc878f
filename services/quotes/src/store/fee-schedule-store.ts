import { withTransaction, type Pool, type PoolClient, type Queryable } from '@pwa/db';
import { minorFromDatabase, type Currency } from '@pwa/money';
import { assertValidFeeRule, parseFeeTiers, storedTiersOf, type FeeRule, type FeeSchedule } from '../domain/fee-schedule';
import type { QuoteType } from '../domain/quote-type';

interface FeeScheduleRow {
  quote_type: QuoteType;
  currency: Currency;
  tiers: unknown;
  minimum_fee_minor: string;
  maximum_fee_minor: string;
  revision: number;
  updated_at: Date;
}

export interface StoredFeeSchedule extends FeeSchedule {
  updatedAt: Date;
}

const columns = 'quote_type, currency, tiers, minimum_fee_minor, maximum_fee_minor, revision, updated_at';

/** Reads and re-validates a row, so a schedule edited by hand into nonsense never prices a quote. */
function toFeeSchedule(row: FeeScheduleRow): StoredFeeSchedule {
  const schedule: StoredFeeSchedule = {
    type: row.quote_type,
    currency: row.currency,
    tiers: parseFeeTiers(row.tiers),
    minimumFeeMinor: minorFromDatabase(row.minimum_fee_minor),
    maximumFeeMinor: minorFromDatabase(row.maximum_fee_minor),
    revision: row.revision,
    updatedAt: row.updated_at,
  };
  assertValidFeeRule(schedule);
  return schedule;
}

/** The schedule in force for a quote type and currency; read per quote, so a change applies to the next quote. */
export async function findFeeSchedule(db: Queryable, type: QuoteType, currency: Currency): Promise<StoredFeeSchedule | undefined> {
  const result = await db.query<FeeScheduleRow>(`SELECT ${columns} FROM fee_schedules WHERE quote_type = $1 AND currency = $2`, [type, currency]);
  const row = result.rows[0];
  return row ? toFeeSchedule(row) : undefined;
}

export async function listFeeSchedules(db: Queryable): Promise<StoredFeeSchedule[]> {
  const result = await db.query<FeeScheduleRow>(`SELECT ${columns} FROM fee_schedules ORDER BY quote_type, currency DESC`);
  return result.rows.map(toFeeSchedule);
}

/**
 * Replaces a schedule under a row lock and records the new revision in the history, in one
 * transaction. `change` computes the new rule from the current one (the CLI changes only what it
 * was given); the result is validated before anything is written.
 */
export async function replaceFeeSchedule(
  pool: Pool,
  type: QuoteType,
  currency: Currency,
  change: (current: FeeRule) => FeeRule,
): Promise<StoredFeeSchedule> {
  return withTransaction(pool, async (client) => (await replaceFeeScheduleIn(client, type, currency, change)).after);
}

/**
 * replaceFeeSchedule inside the caller's transaction (the back-office's approved change records
 * who and which approval in the same one); answers the schedule before and after.
 */
export async function replaceFeeScheduleIn(
  client: PoolClient,
  type: QuoteType,
  currency: Currency,
  change: (current: FeeRule) => FeeRule,
): Promise<{ before: StoredFeeSchedule; after: StoredFeeSchedule }> {
  const locked = await client.query<FeeScheduleRow>(
    `SELECT ${columns} FROM fee_schedules WHERE quote_type = $1 AND currency = $2 FOR UPDATE`,
    [type, currency],
  );
  const row = locked.rows[0];
  if (!row) throw new Error(`no fee schedule for ${type} ${currency}`);
  const before = toFeeSchedule(row);
  const next = change(before);
  assertValidFeeRule(next);
  const updated = await client.query<FeeScheduleRow>(
    `UPDATE fee_schedules
        SET tiers = $3, minimum_fee_minor = $4, maximum_fee_minor = $5, revision = revision + 1, updated_at = now()
      WHERE quote_type = $1 AND currency = $2
      RETURNING ${columns}`,
    [type, currency, JSON.stringify(storedTiersOf(next.tiers)), next.minimumFeeMinor.toString(), next.maximumFeeMinor.toString()],
  );
  await client.query(
    `INSERT INTO fee_schedule_revisions (quote_type, currency, revision, tiers, minimum_fee_minor, maximum_fee_minor, changed_at)
     SELECT quote_type, currency, revision, tiers, minimum_fee_minor, maximum_fee_minor, updated_at
       FROM fee_schedules WHERE quote_type = $1 AND currency = $2`,
    [type, currency],
  );
  const stored = updated.rows[0];
  if (!stored) throw new Error(`fee schedule ${type} ${currency} vanished during its update`);
  return { before, after: toFeeSchedule(stored) };
}
