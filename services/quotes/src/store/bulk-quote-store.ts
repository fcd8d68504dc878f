import type { Queryable } from '@pwa/db';
import { minorFromDatabase, type Currency } from '@pwa/money';
import type { ConsumedBulkQuote, NewBulkQuote, ValidBulkItem } from '../domain/bulk-quote';
import type { QuoteStateForDiagnosis } from '../domain/quote-consumption';

/** The stored bulk quote's own facts, as the insert answers them. */
export interface StoredBulkQuote {
  bulkQuoteId: string;
  expiresAt: Date;
}

/**
 * Stores the bulk quote and all its items in one statement (so in one transaction), only if the
 * disbursement fee schedule revision its items were priced with is still the one in force for its
 * currency; undefined when the schedule was replaced meanwhile (the caller prices the bulk again).
 * The items go in with one INSERT over unnest arrays, whatever their number. Creation and expiry
 * come from the database clock, the one consumption compares against.
 */
export async function insertBulkQuoteIfRevisionCurrent(db: Queryable, bulk: NewBulkQuote, lifetimeSeconds: number): Promise<StoredBulkQuote | undefined> {
  const result = await db.query<{ bulk_quote_id: string; expires_at: Date; item_count: string }>(
    `WITH bulk AS (
       INSERT INTO bulk_quotes (bulk_quote_id, partner_id, currency, fee_schedule_revision, partner_balance_minor, expires_at)
       SELECT $1::uuid, $2::uuid, $3::text, $4::integer, $5::bigint, now() + make_interval(secs => $6::double precision)
        WHERE EXISTS (SELECT 1 FROM fee_schedules WHERE quote_type = 'disbursement' AND currency = $3::text AND revision = $4::integer)
       RETURNING bulk_quote_id, expires_at
     ), items AS (
       INSERT INTO bulk_quote_items (bulk_quote_id, item_index, phone, recipient_name, amount_minor, fee_minor, external_id, note)
       SELECT bulk.bulk_quote_id, item.item_index, item.phone, item.recipient_name, item.amount_minor, item.fee_minor, item.external_id, item.note
         FROM bulk,
              unnest($7::integer[], $8::text[], $9::text[], $10::bigint[], $11::bigint[], $12::text[], $13::text[])
                AS item (item_index, phone, recipient_name, amount_minor, fee_minor, external_id, note)
       RETURNING 1
     )
     SELECT bulk.bulk_quote_id, bulk.expires_at, (SELECT count(*) FROM items) AS item_count FROM bulk`,
    [
      bulk.bulkQuoteId,
      bulk.partnerId,
      bulk.currency,
      bulk.feeScheduleRevision,
      bulk.partnerBalanceMinor.toString(),
      lifetimeSeconds,
      bulk.items.map((item) => item.index),
      bulk.items.map((item) => item.phone),
      bulk.items.map((item) => item.recipientName),
      bulk.items.map((item) => item.amountMinor.toString()),
      bulk.items.map((item) => item.feeMinor.toString()),
      bulk.items.map((item) => item.externalId),
      bulk.items.map((item) => item.note),
    ],
  );
  const row = result.rows[0];
  if (!row) return undefined;
  if (Number(row.item_count) !== bulk.items.length) throw new Error(`bulk quote ${bulk.bulkQuoteId} stored ${row.item_count} of ${bulk.items.length} items`);
  return { bulkQuoteId: row.bulk_quote_id, expiresAt: row.expires_at };
}

interface ConsumedBulkQuoteRow {
  bulk_quote_id: string;
  partner_id: string;
  currency: Currency;
  expires_at: Date;
  used_at: Date;
  items: {
    index: number;
    phone: string;
    recipientName: string;
    amountMinor: string;
    feeMinor: string;
    externalId: string;
    note: string | null;
  }[];
}

/**
 * Marks the bulk quote used if, and only if, it is unused, unexpired and the partner's, and reads
 * its items (ordered by index) in the same statement. Of any number of concurrent calls exactly one
 * gets the row back; the others wait on the row lock, re-check the condition against the committed
 * used_at, and get nothing. Amounts travel as text inside the JSON, never as JSON numbers.
 */
export async function consumeBulkQuote(db: Queryable, bulkQuoteId: string, partnerId: string): Promise<ConsumedBulkQuote | undefined> {
  const result = await db.query<ConsumedBulkQuoteRow>(
    `WITH consumed AS (
       UPDATE bulk_quotes SET used_at = now()
        WHERE bulk_quote_id = $1 AND used_at IS NULL AND expires_at > now() AND partner_id = $2
        RETURNING bulk_quote_id, partner_id, currency, expires_at, used_at
     )
     SELECT consumed.bulk_quote_id, consumed.partner_id, consumed.currency, consumed.expires_at, consumed.used_at,
            (SELECT json_agg(json_build_object(
                      'index', item.item_index, 'phone', item.phone, 'recipientName', item.recipient_name,
                      'amountMinor', item.amount_minor::text, 'feeMinor', item.fee_minor::text,
                      'externalId', item.external_id, 'note', item.note)
                    ORDER BY item.item_index)
               FROM bulk_quote_items item WHERE item.bulk_quote_id = consumed.bulk_quote_id) AS items
       FROM consumed`,
    [bulkQuoteId, partnerId],
  );
  const row = result.rows[0];
  if (!row) return undefined;
  return {
    bulkQuoteId: row.bulk_quote_id,
    partnerId: row.partner_id,
    currency: row.currency,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
    items: (row.items ?? []).map(toValidBulkItem),
  };
}

function toValidBulkItem(item: ConsumedBulkQuoteRow['items'][number]): ValidBulkItem {
  return {
    index: item.index,
    phone: item.phone,
    recipientName: item.recipientName,
    amountMinor: minorFromDatabase(item.amountMinor),
    feeMinor: minorFromDatabase(item.feeMinor),
    externalId: item.externalId,
    note: item.note,
  };
}

/**
 * The facts that explain a refused consumption, read after the refusal as its own statement (so a
 * concurrent winner's used_at is seen). A bulk quote is always a disbursement quote.
 */
export async function findBulkQuoteStateForDiagnosis(db: Queryable, bulkQuoteId: string): Promise<QuoteStateForDiagnosis | undefined> {
  const result = await db.query<{ partner_id: string; expired: boolean; used: boolean }>(
    `SELECT partner_id, expires_at <= now() AS expired, used_at IS NOT NULL AS used FROM bulk_quotes WHERE bulk_quote_id = $1`,
    [bulkQuoteId],
  );
  const row = result.rows[0];
  return row ? { partnerId: row.partner_id, type: 'disbursement', expired: row.expired, used: row.used } : undefined;
}

