import { keysetPageQuery, type Pool, type PoolClient, type Queryable } from '@pwa/db';

export const deliveryStatuses = ['pending', 'delivering', 'delivered', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

export interface NewDelivery {
  deliveryId: string;
  eventId: string;
  partnerId: string;
  eventType: string;
  referenceId: string;
  body: string;
  /** pending (sent at once) or skipped (the partner has no webhook URL). */
  status: 'pending' | 'skipped';
  lastError: string | null;
  /** Trace context and request id of the event, so every attempt continues its trace and log lines. */
  traceparent: string | null;
  requestId: string | null;
}

export interface Delivery {
  deliveryId: string;
  eventId: string;
  partnerId: string;
  eventType: string;
  referenceId: string;
  body: string;
  status: DeliveryStatus;
  attemptCount: number;
  cycleAttemptCount: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  failedAt: Date | null;
}

/** A delivery this worker holds: only the holder of leaseToken may record the attempt's outcome. */
export interface ClaimedDelivery extends Delivery {
  leaseToken: string;
  leasedAt: Date;
  /** The event's trace context and request id, when it carried them: attempts run under them. */
  traceparent: string | null;
  requestId: string | null;
}

export interface AttemptRecord {
  attemptNumber: number;
  startedAt: Date;
  outcome: 'succeeded' | 'failed';
  statusCode: number | null;
  latencyMs: number | null;
  error: string | null;
}

/** What the delivery becomes after an attempt. */
export type NextState = { status: 'delivered' } | { status: 'pending'; delayMs: number } | { status: 'failed' } | { status: 'skipped' };

interface DeliveryRow {
  delivery_id: string;
  event_id: string;
  partner_id: string;
  event_type: string;
  reference_id: string;
  body: string;
  status: DeliveryStatus;
  attempt_count: number;
  cycle_attempt_count: number;
  next_attempt_at: Date | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
  failed_at: Date | null;
  lease_token: string | null;
  leased_at: Date | null;
  traceparent: string | null;
  request_id: string | null;
}

const deliveryColumns = `d.delivery_id, d.event_id, d.partner_id, d.event_type, d.reference_id, d.body, d.status, d.attempt_count,
  d.cycle_attempt_count, d.next_attempt_at, d.last_error, d.created_at, d.delivered_at, d.failed_at, d.lease_token, d.leased_at, d.traceparent, d.request_id`;

function toDelivery(row: DeliveryRow): Delivery {
  return {
    deliveryId: row.delivery_id,
    eventId: row.event_id,
    partnerId: row.partner_id,
    eventType: row.event_type,
    referenceId: row.reference_id,
    body: row.body,
    status: row.status,
    attemptCount: row.attempt_count,
    cycleAttemptCount: row.cycle_attempt_count,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
    failedAt: row.failed_at,
  };
}

function toClaimed(row: DeliveryRow): ClaimedDelivery {
  if (row.lease_token === null || row.leased_at === null) throw new Error(`delivery ${row.delivery_id} has no lease`);
  return { ...toDelivery(row), leaseToken: row.lease_token, leasedAt: row.leased_at, traceparent: row.traceparent, requestId: row.request_id };
}

/** One delivery per event: a second insert of the same event id changes nothing and returns false. */
export async function insertDelivery(client: PoolClient, delivery: NewDelivery): Promise<boolean> {
  const result = await client.query(
    `INSERT INTO deliveries (delivery_id, event_id, partner_id, event_type, reference_id, body, status, next_attempt_at, last_error, traceparent, request_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $7 = 'pending' THEN now() END, $8, $9, $10)
     ON CONFLICT (event_id) DO NOTHING`,
    [
      delivery.deliveryId,
      delivery.eventId,
      delivery.partnerId,
      delivery.eventType,
      delivery.referenceId,
      delivery.body,
      delivery.status,
      delivery.lastError,
      delivery.traceparent,
      delivery.requestId,
    ],
  );
  return (result.rowCount ?? 0) > 0;
}

export interface ClaimOptions {
  /** Free slots of this worker. */
  limit: number;
  /** Attempts in flight per partner, counted over every replica. */
  partnerConcurrencyMax: number;
  leaseMs: number;
}

/**
 * Claims due deliveries: at most `limit`, and per partner at most what its concurrency bound
 * leaves (deliveries already `delivering` anywhere count), earliest due first. FOR UPDATE SKIP
 * LOCKED makes concurrent replicas take disjoint rows; the status re-check after the lock makes a
 * row claimed meanwhile by another replica drop out. Each claim gets its own lease token.
 */
export async function claimDueDeliveries(pool: Pool, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const result = await pool.query<DeliveryRow>(
    `WITH due_partners AS (
       SELECT DISTINCT partner_id FROM deliveries WHERE status = 'pending' AND next_attempt_at <= now()
     ), candidates AS (
       SELECT c.delivery_id, c.next_attempt_at FROM due_partners p
       CROSS JOIN LATERAL (
         SELECT d.delivery_id, d.next_attempt_at FROM deliveries d
         WHERE d.partner_id = p.partner_id AND d.status = 'pending' AND d.next_attempt_at <= now()
         ORDER BY d.next_attempt_at
         LIMIT greatest(0, $2 - (SELECT count(*) FROM deliveries b WHERE b.partner_id = p.partner_id AND b.status = 'delivering'))
       ) c
       ORDER BY c.next_attempt_at
       LIMIT $1
     ), claimable AS (
       SELECT d.delivery_id FROM deliveries d
       WHERE d.delivery_id IN (SELECT delivery_id FROM candidates) AND d.status = 'pending' AND d.next_attempt_at <= now()
       FOR UPDATE SKIP LOCKED
     )
     UPDATE deliveries d SET status = 'delivering', next_attempt_at = NULL, lease_token = gen_random_uuid(), leased_at = now(),
       lease_expires_at = now() + make_interval(secs => $3::double precision / 1000),
       attempt_count = d.attempt_count + 1, cycle_attempt_count = d.cycle_attempt_count + 1, updated_at = now()
     FROM claimable c WHERE d.delivery_id = c.delivery_id
     RETURNING ${deliveryColumns}`,
    [options.limit, options.partnerConcurrencyMax, options.leaseMs],
  );
  return result.rows.map(toClaimed);
}

/** Deliveries whose sender stopped mid-attempt (lease expired), locked for this transaction. */
export async function lockExpiredLeases(client: PoolClient, limit: number): Promise<ClaimedDelivery[]> {
  const result = await client.query<DeliveryRow>(
    `SELECT ${deliveryColumns} FROM deliveries d
     WHERE d.status = 'delivering' AND d.lease_expires_at <= now()
     ORDER BY d.lease_expires_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [limit],
  );
  return result.rows.map(toClaimed);
}

/**
 * Records an attempt and moves the delivery on, but only while the lease is still this claim's:
 * when another replica recovered the delivery meanwhile, nothing is written and false is returned.
 */
export async function completeAttempt(client: PoolClient, claimed: ClaimedDelivery, attempt: AttemptRecord, next: NextState): Promise<boolean> {
  const moved = await client.query(
    `UPDATE deliveries SET status = $3,
       next_attempt_at = CASE WHEN $3 = 'pending' THEN now() + make_interval(secs => $4::double precision / 1000) END,
       lease_token = NULL, leased_at = NULL, lease_expires_at = NULL, last_error = $5, updated_at = now(),
       delivered_at = CASE WHEN $3 = 'delivered' THEN now() ELSE delivered_at END,
       failed_at = CASE WHEN $3 = 'failed' THEN now() ELSE failed_at END
     WHERE delivery_id = $1 AND lease_token = $2 AND status = 'delivering'`,
    [claimed.deliveryId, claimed.leaseToken, next.status, next.status === 'pending' ? next.delayMs : 0, attempt.error],
  );
  if ((moved.rowCount ?? 0) === 0) return false;
  await client.query(
    `INSERT INTO delivery_attempts (delivery_id, attempt_number, started_at, outcome, status_code, latency_ms, error)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [claimed.deliveryId, attempt.attemptNumber, attempt.startedAt, attempt.outcome, attempt.statusCode, attempt.latencyMs, attempt.error],
  );
  return true;
}

export async function findDelivery(db: Queryable, deliveryId: string): Promise<Delivery | undefined> {
  const result = await db.query<DeliveryRow>(`SELECT ${deliveryColumns} FROM deliveries d WHERE d.delivery_id = $1`, [deliveryId]);
  const row = result.rows[0];
  return row ? toDelivery(row) : undefined;
}

export interface DeliveryFilter {
  partnerId: string;
  status?: DeliveryStatus;
  eventType?: string;
  referenceId?: string;
  from?: Date;
  to?: Date;
  /** Continue after this (created_at, delivery_id), newest first. */
  after?: { createdAt: Date; deliveryId: string };
  limit: number;
}

/**
 * A partner's deliveries, newest first, filtered; keyset pagination on (created_at, delivery_id).
 * created_at keeps milliseconds (timestamptz(3)), so the cursor's Date is the row's exact instant.
 */
export async function listDeliveries(pool: Pool, filter: DeliveryFilter): Promise<Delivery[]> {
  const { sql, values } = keysetPageQuery({
    columns: deliveryColumns,
    from: 'FROM deliveries d',
    createdAtColumn: 'd.created_at',
    idColumn: 'd.delivery_id',
    scope: [(p) => `d.partner_id = ${p}`, filter.partnerId],
    filters: [
      [(p) => `d.status = ${p}`, filter.status],
      [(p) => `d.event_type = ${p}`, filter.eventType],
      [(p) => `d.reference_id = ${p}`, filter.referenceId],
      [(p) => `d.created_at >= ${p}`, filter.from],
      [(p) => `d.created_at < ${p}`, filter.to],
    ],
    after: filter.after === undefined ? undefined : { createdAt: filter.after.createdAt, id: filter.after.deliveryId },
    rowCount: filter.limit,
  });
  const result = await pool.query<DeliveryRow>(sql, values);
  return result.rows.map(toDelivery);
}

interface AttemptRow {
  delivery_id: string;
  attempt_number: number;
  started_at: Date;
  outcome: 'succeeded' | 'failed';
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
}

export async function attemptsOf(pool: Pool, deliveryIds: readonly string[]): Promise<Map<string, AttemptRecord[]>> {
  const byDelivery = new Map<string, AttemptRecord[]>(deliveryIds.map((id) => [id, []]));
  if (deliveryIds.length === 0) return byDelivery;
  const result = await pool.query<AttemptRow>(
    `SELECT delivery_id, attempt_number, started_at, outcome, status_code, latency_ms, error FROM delivery_attempts
     WHERE delivery_id = ANY($1::uuid[]) ORDER BY delivery_id, attempt_number`,
    [deliveryIds],
  );
  for (const row of result.rows) {
    byDelivery.get(row.delivery_id)?.push({
      attemptNumber: row.attempt_number,
      startedAt: row.started_at,
      outcome: row.outcome,
      statusCode: row.status_code,
      latencyMs: row.latency_ms,
      error: row.error,
    });
  }
  return byDelivery;
}

/**
 * Starts a new cycle (first attempt now, then the configured retries) for a delivered, failed or
 * skipped delivery of the partner; a pending one is brought forward to now; one being sent is left
 * alone. Returns the delivery after the change, or undefined when the partner has no such delivery.
 */
export async function redeliverOne(pool: Pool, partnerId: string, deliveryId: string): Promise<Delivery | undefined> {
  const result = await pool.query<DeliveryRow>(
    `UPDATE deliveries d SET status = 'pending', next_attempt_at = now(), updated_at = now(),
       cycle_attempt_count = CASE WHEN d.status = 'pending' THEN d.cycle_attempt_count ELSE 0 END
     WHERE d.delivery_id = $1 AND d.partner_id = $2 AND d.status IN ('pending', 'delivered', 'failed', 'skipped')
     RETURNING ${deliveryColumns}`,
    [deliveryId, partnerId],
  );
  const row = result.rows[0];
  return row ? toDelivery(row) : undefined;
}

/** Starts a new cycle for the partner's failed deliveries created since `since`, at most `max`, oldest first. */
export async function redeliverFailedSince(pool: Pool, partnerId: string, since: Date, max: number): Promise<string[]> {
  const result = await pool.query<{ delivery_id: string }>(
    `WITH chosen AS (
       SELECT delivery_id FROM deliveries WHERE partner_id = $1 AND status = 'failed' AND created_at >= $2
       ORDER BY created_at, delivery_id LIMIT $3 FOR UPDATE SKIP LOCKED
     )
     UPDATE deliveries d SET status = 'pending', next_attempt_at = now(), cycle_attempt_count = 0, updated_at = now()
     FROM chosen WHERE d.delivery_id = chosen.delivery_id AND d.status = 'failed'
     RETURNING d.delivery_id`,
    [partnerId, since, max],
  );
  return result.rows.map((row) => row.delivery_id);
}

/** Seconds since the oldest due delivery became due (0 when none is waiting): the worker's lag. */
export async function oldestDueAgeSeconds(pool: Pool): Promise<number> {
  const result = await pool.query<{ age_seconds: number | null }>(
    `SELECT extract(epoch FROM now() - min(next_attempt_at))::double precision AS age_seconds
     FROM deliveries WHERE status = 'pending' AND next_attempt_at <= now()`,
  );
  return Math.max(0, result.rows[0]?.age_seconds ?? 0);
}
