import type { Queryable } from '@pwa/db';
import { minorFromDatabase, type Currency } from '@pwa/money';
import type { ConsumedQuote, NewQuote, Quote } from '../domain/quote';
import type { QuoteStateForDiagnosis } from '../domain/quote-consumption';
import type { QuoteType } from '../domain/quote-type';

interface QuoteRow {
  quote_id: string;
  partner_id: string;
  quote_type: QuoteType;
  phone: string;
  currency: Currency;
  amount_minor: string;
  fee_minor: string;
  total_debit_minor: string;
  recipient_name: string;
  recipient_account_status: string;
  recipient_has_wallet: boolean;
  partner_balance_minor: string;
  fee_schedule_revision: number;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

const quoteColumns = `quote_id, partner_id, quote_type, phone, currency, amount_minor, fee_minor, total_debit_minor,
  recipient_name, recipient_account_status, recipient_has_wallet, partner_balance_minor, fee_schedule_revision,
  created_at, expires_at, used_at`;

function toQuote(row: QuoteRow): Quote {
  return {
    quoteId: row.quote_id,
    partnerId: row.partner_id,
    type: row.quote_type,
    phone: row.phone,
    currency: row.currency,
    amountMinor: minorFromDatabase(row.amount_minor),
    feeMinor: minorFromDatabase(row.fee_minor),
    totalDebitMinor: minorFromDatabase(row.total_debit_minor),
    recipientName: row.recipient_name,
    recipientAccountStatus: row.recipient_account_status,
    recipientHasWallet: row.recipient_has_wallet,
    partnerBalanceMinor: minorFromDatabase(row.partner_balance_minor),
    feeScheduleRevision: row.fee_schedule_revision,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
  };
}

/** Stores a quote; its creation and expiry come from the database clock, the same clock consumption compares against. */
/**
 * Stores the quote only if the fee schedule revision it was priced with is still the one in force
 * for its type and currency, by one statement; undefined when the schedule was replaced meanwhile
 * (the caller prices the quote again).
 */
export async function insertQuoteIfRevisionCurrent(db: Queryable, quote: NewQuote, lifetimeSeconds: number): Promise<Quote | undefined> {
  const result = await db.query<QuoteRow>(
    `INSERT INTO quotes (quote_id, partner_id, quote_type, phone, currency, amount_minor, fee_minor, recipient_name,
                         recipient_account_status, recipient_has_wallet, partner_balance_minor, fee_schedule_revision, expires_at)
     SELECT $1::uuid, $2::uuid, $3::text, $4::text, $5::text, $6::bigint, $7::bigint, $8::text, $9::text, $10::boolean, $11::bigint, $12::integer,
            now() + make_interval(secs => $13::double precision)
      WHERE EXISTS (SELECT 1 FROM fee_schedules WHERE quote_type = $3::text AND currency = $5::text AND revision = $12::integer)
     RETURNING ${quoteColumns}`,
    [
      quote.quoteId,
      quote.partnerId,
      quote.type,
      quote.phone,
      quote.currency,
      quote.amountMinor.toString(),
      quote.feeMinor.toString(),
      quote.recipientName,
      quote.recipientAccountStatus,
      quote.recipientHasWallet,
      quote.partnerBalanceMinor.toString(),
      quote.feeScheduleRevision,
      lifetimeSeconds,
    ],
  );
  const row = result.rows[0];
  return row ? toQuote(row) : undefined;
}

/**
 * Marks the quote used if, and only if, it is unused, unexpired, the partner's and of the type.
 * One statement: of any number of concurrent calls, exactly one gets the row back; the others
 * wait on the row lock, re-check the condition against the committed used_at, and get nothing.
 */
export async function consumeQuote(db: Queryable, quoteId: string, partnerId: string, type: QuoteType): Promise<ConsumedQuote | undefined> {
  const result = await db.query<QuoteRow>(
    `UPDATE quotes SET used_at = now()
      WHERE quote_id = $1 AND used_at IS NULL AND expires_at > now() AND partner_id = $2 AND quote_type = $3
      RETURNING ${quoteColumns}`,
    [quoteId, partnerId, type],
  );
  const row = result.rows[0];
  if (!row) return undefined;
  const quote = toQuote(row);
  if (quote.usedAt === null) throw new Error('a consumed quote came back without used_at');
  return { ...quote, usedAt: quote.usedAt };
}

/**
 * The facts that explain a refused consumption. It runs as its own statement after the refusal,
 * so it sees the committed state the update was refused on (a concurrent winner's used_at included).
 */
export async function findQuoteStateForDiagnosis(db: Queryable, quoteId: string): Promise<QuoteStateForDiagnosis | undefined> {
  const result = await db.query<{ partner_id: string; quote_type: QuoteType; expired: boolean; used: boolean }>(
    `SELECT partner_id, quote_type, expires_at <= now() AS expired, used_at IS NOT NULL AS used FROM quotes WHERE quote_id = $1`,
    [quoteId],
  );
  const row = result.rows[0];
  return row ? { partnerId: row.partner_id, type: row.quote_type, expired: row.expired, used: row.used } : undefined;
}
