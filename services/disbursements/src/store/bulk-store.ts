import { enqueueEvent, outboxColumnsOf, outboxInsertWhenRowsIn } from '@pwa/bus';
import type { BulkStatus, EventEnvelope, PartnerActor } from '@pwa/contracts';
import { withTransaction, type Pool, type PoolClient, type Queryable } from '@pwa/db';
import { minorFromDatabase, type Currency } from '@pwa/money';
import type { Bulk, BulkProgress } from '../domain/bulk';
import type { Disbursement, Settlement } from '../domain/disbursement';
import { disbursementColumns, toDisbursement, type DisbursementRow } from './disbursement-store';

/*
 * The bulk payouts' SQL (decision 0055). A bulk's items are rows of disbursements (bulk_id,
 * bulk_index), so they are in the partner's lists and status calls like any disbursement; what a
 * bulk adds is its row in bulks, the processor's lease on the items it is posting, and set-based
 * statements that settle a whole batch of items (with their events) at once.
 */

export interface BulkRow {
  bulk_id: string;
  partner_id: string;
  external_id: string;
  bulk_quote_id: string;
  currency: Currency;
  item_count: number;
  status: BulkStatus;
  created_at: Date;
  completed_at: Date | null;
  requested_by: PartnerActor | null;
}

export const bulkColumns = 'bulk_id, partner_id, external_id, bulk_quote_id, currency, item_count, status, created_at, completed_at, requested_by';

export function toBulk(row: BulkRow): Bulk {
  return {
    bulkId: row.bulk_id,
    partnerId: row.partner_id,
    externalId: row.external_id,
    bulkQuoteId: row.bulk_quote_id,
    currency: row.currency,
    itemCount: row.item_count,
    status: row.status,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    requestedBy: row.requested_by,
  };
}

export async function findBulk(db: Queryable, bulkId: string): Promise<Bulk | undefined> {
  const result = await db.query<BulkRow>(`SELECT ${bulkColumns} FROM bulks WHERE bulk_id = $1`, [bulkId]);
  const row = result.rows[0];
  return row ? toBulk(row) : undefined;
}

export async function findBulkByExternalId(db: Queryable, partnerId: string, externalId: string): Promise<Bulk | undefined> {
  const result = await db.query<BulkRow>(`SELECT ${bulkColumns} FROM bulks WHERE partner_id = $1 AND external_id = $2`, [partnerId, externalId]);
  const row = result.rows[0];
  return row ? toBulk(row) : undefined;
}

/** Which of these externalIds a pending or completed disbursement of the partner holds, with the holder's referenceId. */
export async function heldExternalIds(db: Queryable, partnerId: string, externalIds: readonly string[]): Promise<Map<string, string>> {
  if (externalIds.length === 0) return new Map();
  const result = await db.query<{ external_id: string; reference_id: string }>(
    `SELECT external_id, reference_id FROM disbursements
      WHERE partner_id = $1 AND external_id = ANY ($2::text[]) AND status IN ('processing', 'completed')`,
    [partnerId, [...new Set(externalIds)]],
  );
  return new Map(result.rows.map((row) => [row.external_id, row.reference_id]));
}

export interface NewBulkItem {
  disbursementId: string;
  referenceId: string;
  index: number;
  externalId: string;
  phone: string;
  recipientName: string;
  amountMinor: bigint;
  feeMinor: bigint;
  note: string | null;
}

export type BulkAcceptance =
  | { kind: 'accepted'; bulk: Bulk; refused: Disbursement[] }
  | { kind: 'external_id_taken' };

/**
 * Records an accepted bulk and its items in one transaction: the bulk (its externalId unique per
 * partner: when another bulk holds it, nothing is written), every item as a processing
 * disbursement in one INSERT, and, for an item whose externalId a disbursement took since the
 * quote (the partial unique index decides, as for a single transfer), the item as failed with
 * PKC_6001 and its disbursement.failed event. `refusedEvent` builds that event.
 */
export async function acceptBulk(
  pool: Pool,
  bulk: Omit<Bulk, 'status' | 'createdAt' | 'completedAt'>,
  items: readonly NewBulkItem[],
  refusal: { failureCode: string; failureMessage: string; eventOf: (disbursement: Disbursement) => EventEnvelope },
): Promise<BulkAcceptance> {
  return withTransaction(pool, async (client) => {
    const inserted = await client.query<BulkRow>(
      `INSERT INTO bulks (bulk_id, partner_id, external_id, bulk_quote_id, currency, item_count, status, requested_by)
       VALUES ($1, $2, $3, $4, $5, $6, 'processing', $7)
       ON CONFLICT (partner_id, external_id) DO NOTHING
       RETURNING ${bulkColumns}`,
      [bulk.bulkId, bulk.partnerId, bulk.externalId, bulk.bulkQuoteId, bulk.currency, bulk.itemCount, bulk.requestedBy],
    );
    const row = inserted.rows[0];
    if (!row) return { kind: 'external_id_taken' };
    const accepted = await insertItems(client, bulk, items, 'processing');
    const taken = items.filter((item) => !accepted.has(item.disbursementId));
    const refused = await insertItems(client, bulk, taken, 'failed', refusal);
    for (const disbursement of refused.values()) await enqueueEvent(client, refusal.eventOf(disbursement));
    return { kind: 'accepted', bulk: toBulk(row), refused: [...refused.values()] };
  });
}

async function insertItems(
  client: PoolClient,
  bulk: Pick<Bulk, 'bulkId' | 'partnerId' | 'currency'>,
  items: readonly NewBulkItem[],
  status: 'processing' | 'failed',
  failure?: { failureCode: string; failureMessage: string },
): Promise<Map<string, Disbursement>> {
  if (items.length === 0) return new Map();
  const column = <K extends keyof NewBulkItem>(key: K): NewBulkItem[K][] => items.map((item) => item[key]);
  const result = await client.query<DisbursementRow>(
    `INSERT INTO disbursements (disbursement_id, reference_id, partner_id, external_id, bulk_id, bulk_index, phone, recipient_name, currency, amount_minor, fee_minor, note, status, failure_code, failure_message, settled_at)
     SELECT item.disbursement_id, item.reference_id, $1, item.external_id, $2, item.bulk_index, item.phone, item.recipient_name, $3, item.amount_minor, item.fee_minor, item.note,
            $4, $5, $6, CASE WHEN $4 = 'processing' THEN NULL ELSE clock_timestamp() END
       FROM unnest($7::uuid[], $8::text[], $9::text[], $10::int[], $11::text[], $12::text[], $13::bigint[], $14::bigint[], $15::text[])
         AS item(disbursement_id, reference_id, external_id, bulk_index, phone, recipient_name, amount_minor, fee_minor, note)
     ON CONFLICT (partner_id, external_id) WHERE status IN ('processing', 'completed') DO NOTHING
     RETURNING ${disbursementColumns}`,
    [
      bulk.partnerId,
      bulk.bulkId,
      bulk.currency,
      status,
      failure?.failureCode ?? null,
      failure?.failureMessage ?? null,
      column('disbursementId'),
      column('referenceId'),
      column('externalId'),
      column('index'),
      column('phone'),
      column('recipientName'),
      column('amountMinor').map(String),
      column('feeMinor').map(String),
      column('note'),
    ],
  );
  return new Map(result.rows.map((row) => [row.disbursement_id, toDisbursement(row)]));
}

/**
 * Claims the next batch to post: up to `itemsMax` processing items of the oldest bulk that has
 * unclaimed ones (none leased, or their lease ran out because their processor died), in the
 * partner's order, leased for `leaseMs`. SKIP LOCKED and the lease keep two processors off the
 * same items; should a lease run out under a live processor, the wallet still posts each item once
 * (its transfer id) and the first settlement wins.
 */
export async function claimBulkBatch(db: Queryable, leaseMs: number, itemsMax: number): Promise<Disbursement[]> {
  const result = await db.query<DisbursementRow>(
    `WITH next_bulk AS (
       SELECT b.bulk_id FROM bulks b
        WHERE b.status = 'processing'
          AND EXISTS (SELECT 1 FROM disbursements d
                       WHERE d.bulk_id = b.bulk_id AND d.status = 'processing' AND (d.lease_until IS NULL OR d.lease_until < clock_timestamp()))
        ORDER BY b.created_at LIMIT 1
     ), claimable AS (
       SELECT d.disbursement_id FROM disbursements d
        WHERE d.bulk_id = (SELECT bulk_id FROM next_bulk) AND d.status = 'processing' AND (d.lease_until IS NULL OR d.lease_until < clock_timestamp())
        ORDER BY d.bulk_index LIMIT $2
        FOR UPDATE OF d SKIP LOCKED
     )
     UPDATE disbursements d SET lease_until = clock_timestamp() + make_interval(secs => $1::double precision / 1000)
       FROM claimable c WHERE d.disbursement_id = c.disbursement_id
     RETURNING ${disbursementColumns.split(', ').map((name) => `d.${name}`).join(', ')}`,
    [leaseMs, itemsMax],
  );
  return result.rows.map(toDisbursement).sort((left, right) => (left.bulkIndex ?? 0) - (right.bulkIndex ?? 0));
}

/** Gives claimed items back at once (their batch never reached the wallet), so the next pass takes them. */
export async function releaseBulkItems(db: Queryable, disbursementIds: readonly string[]): Promise<void> {
  await db.query(`UPDATE disbursements SET lease_until = NULL WHERE disbursement_id = ANY ($1::uuid[]) AND status = 'processing'`, [disbursementIds]);
}

export interface ItemSettlement {
  disbursementId: string;
  settlement: Settlement;
  event: EventEnvelope;
}

/**
 * Settles a batch's items and writes each settled item's event, in one statement: an item moves
 * from processing to its final state only if still processing (the first settlement wins), and its
 * event is inserted exactly for the items this statement moved. Answers how many it moved.
 *
 * Each row finds its values by its place in the arrays (array_position), not by a join: the items
 * of a bulk arrive faster than the table's statistics follow, and a join planned on statistics
 * that have not seen them yet (no row "processing") was a nested loop over the whole table for
 * every item, hundreds of milliseconds per batch. Without a join the plan is one scan of the rows
 * named by their primary keys, whatever the statistics say.
 */
export async function settleBulkItems(db: Queryable, settlements: readonly ItemSettlement[]): Promise<number> {
  if (settlements.length === 0) return 0;
  const completed = (entry: ItemSettlement) => (entry.settlement.status === 'completed' ? entry.settlement : undefined);
  const unsuccessful = (entry: ItemSettlement) => (entry.settlement.status === 'completed' ? undefined : entry.settlement);
  const outbox = outboxColumnsOf(settlements.map((entry) => entry.event));
  const at = 'array_position($1::uuid[], d.disbursement_id)';
  const result = await db.query<{ settled: string }>(
    `WITH settled AS (
       UPDATE disbursements d
          SET status = ($2::text[])[${at}], transaction_id = ($3::text[])[${at}], completed_at = ($4::timestamptz[])[${at}],
              failure_code = ($5::text[])[${at}], failure_message = ($6::text[])[${at}], settled_at = clock_timestamp(), lease_until = NULL
        WHERE d.disbursement_id = ANY ($1::uuid[]) AND d.status = 'processing'
        RETURNING ${at} AS position
     ), events AS (
       INSERT INTO outbox (id, routing_key, payload)
       SELECT ($7::uuid[])[position], ($8::text[])[position], ($9::jsonb[])[position] FROM settled
     )
     SELECT count(*)::text AS settled FROM settled`,
    [
      settlements.map((entry) => entry.disbursementId),
      settlements.map((entry) => entry.settlement.status),
      settlements.map((entry) => completed(entry)?.transactionId ?? null),
      settlements.map((entry) => completed(entry)?.completedAt ?? null),
      settlements.map((entry) => unsuccessful(entry)?.failureCode ?? null),
      settlements.map((entry) => unsuccessful(entry)?.failureMessage ?? null),
      outbox.ids,
      outbox.routingKeys,
      outbox.payloads,
    ],
  );
  return Number(result.rows[0]?.settled ?? 0);
}

interface ProgressRow {
  pending: string;
  completed: string;
  failed: string;
  amount: string;
  fee: string;
  completed_amount: string;
  completed_fee: string;
}

/** A bulk's counts and money, summed over its items (with the bulk_id they are grouped by, when asked). */
const progressColumnsSql = `count(*) FILTER (WHERE status = 'processing')::text AS pending,
            count(*) FILTER (WHERE status = 'completed')::text AS completed,
            count(*) FILTER (WHERE status IN ('failed', 'timed_out'))::text AS failed,
            coalesce(sum(amount_minor), 0)::text AS amount,
            coalesce(sum(fee_minor), 0)::text AS fee,
            coalesce(sum(amount_minor) FILTER (WHERE status = 'completed'), 0)::text AS completed_amount,
            coalesce(sum(fee_minor) FILTER (WHERE status = 'completed'), 0)::text AS completed_fee`;

function toProgress(row: ProgressRow): BulkProgress {
  return {
    pending: Number(row.pending),
    completed: Number(row.completed),
    failed: Number(row.failed),
    totalAmountMinor: minorFromDatabase(row.amount),
    totalFeeMinor: minorFromDatabase(row.fee),
    completedAmountMinor: minorFromDatabase(row.completed_amount),
    completedFeeMinor: minorFromDatabase(row.completed_fee),
  };
}

/** The bulk's counts and money, from its items. */
export async function readBulkProgress(db: Queryable, bulkId: string): Promise<BulkProgress> {
  const result = await db.query<ProgressRow>(`SELECT ${progressColumnsSql} FROM disbursements WHERE bulk_id = $1`, [bulkId]);
  const row = result.rows[0];
  if (!row) throw new Error(`bulk ${bulkId} has no progress row`);
  return toProgress(row);
}

/**
 * The counts and money of several bulks in one statement (a page of the partner's bulks), by
 * bulkId: each bulk's items are one range of the index on (bulk_id, bulk_index).
 */
export async function readBulksProgress(db: Queryable, bulkIds: readonly string[]): Promise<Map<string, BulkProgress>> {
  if (bulkIds.length === 0) return new Map();
  const result = await db.query<ProgressRow & { bulk_id: string }>(
    `SELECT bulk_id, ${progressColumnsSql} FROM disbursements WHERE bulk_id = ANY ($1::text[]) GROUP BY bulk_id`,
    [bulkIds],
  );
  return new Map(result.rows.map((row) => [row.bulk_id, toProgress(row)]));
}

/**
 * Moves the bulk to its final status with its bulk.completed event, in one statement, only while
 * it is processing and none of its items is: the event exists if and only if this changed the
 * bulk. Undefined when it did not (already final, or an item is still pending).
 */
export async function completeBulk(db: Queryable, bulkId: string, status: Exclude<BulkStatus, 'processing'>, event: EventEnvelope): Promise<Bulk | undefined> {
  const outboxInsert = outboxInsertWhenRowsIn('done', 3, event);
  const result = await db.query<BulkRow>(
    `WITH done AS (
       UPDATE bulks SET status = $2, completed_at = clock_timestamp()
        WHERE bulk_id = $1 AND status = 'processing'
          AND NOT EXISTS (SELECT 1 FROM disbursements WHERE bulk_id = $1 AND status = 'processing')
        RETURNING ${bulkColumns}
     ), event AS (${outboxInsert.sql})
     SELECT ${bulkColumns} FROM done`,
    [bulkId, status, ...outboxInsert.values],
  );
  const row = result.rows[0];
  return row ? toBulk(row) : undefined;
}

/** Bulks still processing none of whose items is (their completion was not recorded: a crash in between). */
export async function listBulksAwaitingCompletion(db: Queryable, limit: number): Promise<string[]> {
  const result = await db.query<{ bulk_id: string }>(
    `SELECT b.bulk_id FROM bulks b
      WHERE b.status = 'processing'
        AND NOT EXISTS (SELECT 1 FROM disbursements d WHERE d.bulk_id = b.bulk_id AND d.status = 'processing')
      ORDER BY b.created_at LIMIT $1`,
    [limit],
  );
  return result.rows.map((row) => row.bulk_id);
}

/** One page of a bulk's items in the partner's order, after an index: rowCount rows at most. */
export async function listBulkItems(db: Queryable, bulkId: string, afterIndex: number | undefined, rowCount: number): Promise<Disbursement[]> {
  const result = await db.query<DisbursementRow>(
    `SELECT ${disbursementColumns} FROM disbursements WHERE bulk_id = $1 AND bulk_index > $2 ORDER BY bulk_index LIMIT $3`,
    [bulkId, afterIndex ?? -1, rowCount],
  );
  return result.rows.map(toDisbursement);
}

/** The bulk processor's backlog, sampled at scrape: items still to post, and how long the oldest processing bulk has waited (0 when none). */
export async function readBulkBacklog(db: Queryable): Promise<{ pendingItems: number; oldestProcessingSeconds: number }> {
  const result = await db.query<{ pending_items: string; oldest_seconds: string }>(
    `SELECT (SELECT count(*) FROM disbursements WHERE bulk_id IS NOT NULL AND status = 'processing')::text AS pending_items,
            coalesce((SELECT extract(epoch FROM now() - min(created_at)) FROM bulks WHERE status = 'processing'), 0)::text AS oldest_seconds`,
  );
  const row = result.rows[0];
  return { pendingItems: Number(row?.pending_items ?? 0), oldestProcessingSeconds: Number(row?.oldest_seconds ?? 0) };
}
