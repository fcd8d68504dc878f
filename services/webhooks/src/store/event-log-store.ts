import type { Pool } from '@pwa/db';
import type { DeliveryStatus } from './delivery-store';

/**
 * The partner's events, read from the deliveries: every event becomes exactly one delivery
 * (UNIQUE event_id), recorded whether the partner has a webhook URL or not (skipped then), with the
 * exact body sent. So the deliveries are the event log (decision 0051); these reads add no table.
 */
export interface LoggedEvent {
  deliveryId: string;
  eventId: string;
  eventType: string;
  body: string;
  deliveryStatus: DeliveryStatus;
  createdAt: Date;
}

interface LoggedEventRow {
  delivery_id: string;
  event_id: string;
  event_type: string;
  body: string;
  status: DeliveryStatus;
  created_at: Date;
}

function toLoggedEvent(row: LoggedEventRow): LoggedEvent {
  return { deliveryId: row.delivery_id, eventId: row.event_id, eventType: row.event_type, body: row.body, deliveryStatus: row.status, createdAt: row.created_at };
}

export interface EventLogFilter {
  partnerId: string;
  /** Nothing older is listed (the retention), whether or not it has been pruned yet. */
  notBefore: Date;
  eventType?: string;
  since?: Date;
  /** The last event of the previous page: (created_at, delivery_id), the list's order. */
  after?: { createdAt: Date; deliveryId: string };
  limit: number;
}

/**
 * Oldest first, by (created_at, delivery_id): a range scan of deliveries_partner_created_idx read
 * forwards from the later of `notBefore`, `since` and the cursor (created_at has millisecond
 * precision, so the cursor's JavaScript date compares exactly).
 */
export async function listLoggedEvents(pool: Pool, filter: EventLogFilter): Promise<LoggedEvent[]> {
  const lowerBound = filter.since !== undefined && filter.since > filter.notBefore ? filter.since : filter.notBefore;
  const result = await pool.query<LoggedEventRow>(
    `SELECT delivery_id, event_id, event_type, body, status, created_at FROM deliveries
      WHERE partner_id = $1 AND created_at >= $2
        AND ($3::text IS NULL OR event_type = $3)
        AND ($4::timestamptz IS NULL OR (created_at, delivery_id) > ($4::timestamptz, $5::uuid))
      ORDER BY created_at, delivery_id LIMIT $6`,
    [filter.partnerId, lowerBound, filter.eventType ?? null, filter.after?.createdAt ?? null, filter.after?.deliveryId ?? null, filter.limit],
  );
  return result.rows.map(toLoggedEvent);
}

/** One event of this partner, no older than `notBefore`; another partner's is not found. */
export async function findLoggedEvent(pool: Pool, partnerId: string, eventId: string, notBefore: Date): Promise<LoggedEvent | undefined> {
  const result = await pool.query<LoggedEventRow>(
    `SELECT delivery_id, event_id, event_type, body, status, created_at FROM deliveries
      WHERE event_id = $1 AND partner_id = $2 AND created_at >= $3`,
    [eventId, partnerId, notBefore],
  );
  const row = result.rows[0];
  return row ? toLoggedEvent(row) : undefined;
}

/**
 * Deletes up to `batchMax` deliveries recorded before `olderThan` that are settled (delivered,
 * failed or skipped: a pending or delivering one is still being worked on), with their attempts, in
 * one statement. Returns how many deliveries went; the caller repeats while a batch is full.
 */
export async function pruneSettledDeliveries(pool: Pool, olderThan: Date, batchMax: number): Promise<number> {
  const result = await pool.query<{ pruned: string }>(
    `WITH doomed AS (
       SELECT delivery_id FROM deliveries
        WHERE created_at < $1 AND status IN ('delivered', 'failed', 'skipped')
        ORDER BY created_at LIMIT $2
        FOR UPDATE SKIP LOCKED
     ), attempts AS (
       DELETE FROM delivery_attempts WHERE delivery_id IN (SELECT delivery_id FROM doomed)
     ), pruned AS (
       DELETE FROM deliveries WHERE delivery_id IN (SELECT delivery_id FROM doomed) RETURNING 1
     )
     SELECT count(*)::text AS pruned FROM pruned`,
    [olderThan, batchMax],
  );
  return Number(result.rows[0]?.pruned ?? '0');
}
