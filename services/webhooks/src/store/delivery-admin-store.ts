import { createdAtKeySql, keysetPageQuery, type Pool, type PoolClient, type Queryable } from '@pwa/db';
import type { WebhookBacklogStatus, WebhooksAdminDelivery } from '@pwa/contracts';

/**
 * The back-office's reads and redeliveries of deliveries across partners (issue 27). The backlog
 * status is derived from the row: failed is dead; pending or delivering is retrying once an
 * attempt of the current cycle failed (a delivering row counts the attempt in flight), else pending.
 * Never the body: what was sent stays between the service and the partner.
 */
const failedInCycle = `(d.cycle_attempt_count - CASE WHEN d.status = 'delivering' THEN 1 ELSE 0 END)`;

/** Which rows each backlog status is: the service's states, and whether an attempt of the cycle failed. */
const backlogScope: Readonly<Record<WebhookBacklogStatus | 'all', { states: string; condition: string }>> = {
  pending: { states: 'pending,delivering', condition: `${failedInCycle} = 0` },
  retrying: { states: 'pending,delivering', condition: `${failedInCycle} > 0` },
  dead: { states: 'failed', condition: 'true' },
  all: { states: 'pending,delivering,failed', condition: 'true' },
};

const columns = `d.delivery_id AS "deliveryId", d.event_id AS "eventId", d.partner_id AS "partnerId", d.event_type AS event, d.reference_id AS "referenceId",
  CASE WHEN d.status = 'failed' THEN 'dead' WHEN ${failedInCycle} > 0 THEN 'retrying' ELSE 'pending' END AS status,
  d.status AS "deliveryState", d.attempt_count AS "attemptCount", last.status_code AS "lastStatusCode", d.last_error AS "lastError",
  last.started_at AS "lastAttemptAt", d.next_attempt_at AS "nextAttemptAt", ${createdAtKeySql('d.created_at')}, d.failed_at AS "failedAt"`;

interface Row extends Omit<WebhooksAdminDelivery, 'lastAttemptAt' | 'nextAttemptAt' | 'createdAt' | 'failedAt'> {
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  created_at_key: string;
  failedAt: Date | null;
}

export async function listBacklog(
  pool: Pool,
  query: { status: WebhookBacklogStatus | undefined; partnerId: string | undefined; after: { createdAt: string; id: string } | undefined; pageSize: number },
): Promise<{ deliveries: WebhooksAdminDelivery[]; next: { createdAt: string; id: string } | null }> {
  const scope = backlogScope[query.status ?? 'all'];
  const { sql, values } = keysetPageQuery({
    columns,
    from: `FROM deliveries d LEFT JOIN LATERAL (
      SELECT a.status_code, a.started_at FROM delivery_attempts a WHERE a.delivery_id = d.delivery_id ORDER BY a.attempt_number DESC LIMIT 1
    ) last ON true`,
    createdAtColumn: 'd.created_at',
    idColumn: 'd.delivery_id',
    scope: [(p) => `d.status = ANY(string_to_array(${p}, ',')) AND ${scope.condition}`, scope.states],
    filters: [[(p) => `d.partner_id = ${p}`, query.partnerId]],
    after: query.after,
    rowCount: query.pageSize + 1,
  });
  const result = await pool.query<Row>(sql, values);
  const deliveries = result.rows.slice(0, query.pageSize).map((row) => ({
    deliveryId: row.deliveryId,
    eventId: row.eventId,
    partnerId: row.partnerId,
    event: row.event,
    referenceId: row.referenceId,
    status: row.status,
    deliveryState: row.deliveryState,
    attemptCount: row.attemptCount,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    createdAt: row.created_at_key,
    failedAt: row.failedAt?.toISOString() ?? null,
  }));
  const last = deliveries.at(-1);
  return { deliveries, next: result.rows.length > query.pageSize && last ? { createdAt: last.createdAt, id: last.deliveryId } : null };
}

/**
 * Sends any partner's delivery again, as the partner's redeliver does (delivery-store's
 * redeliverOne), under the row's lock so the state before is the one changed. Undefined for an
 * unknown delivery.
 */
export async function redeliverAnyPartner(
  client: PoolClient,
  deliveryId: string,
): Promise<{ partnerId: string; before: string; after: string; nextAttemptAt: Date | null } | undefined> {
  const locked = await client.query<{ partner_id: string; status: string }>(`SELECT partner_id, status FROM deliveries WHERE delivery_id = $1 FOR UPDATE`, [deliveryId]);
  const row = locked.rows[0];
  if (!row) return undefined;
  const changed = await client.query<{ status: string; next_attempt_at: Date | null }>(
    `UPDATE deliveries d SET status = 'pending', next_attempt_at = now(), updated_at = now(),
       cycle_attempt_count = CASE WHEN d.status = 'pending' THEN d.cycle_attempt_count ELSE 0 END
     WHERE d.delivery_id = $1 AND d.status IN ('pending', 'delivered', 'failed', 'skipped')
     RETURNING d.status, d.next_attempt_at`,
    [deliveryId],
  );
  const after = changed.rows[0];
  return { partnerId: row.partner_id, before: row.status, after: after?.status ?? row.status, nextAttemptAt: after?.next_attempt_at ?? null };
}

/** A person's redelivery as recorded (operator_redeliveries, migration 1700000000004). */
export interface OperatorRedelivery {
  requestId: string;
  deliveryId: string;
  partnerId: string;
  before: string;
  after: string;
  nextAttemptAt: Date | null;
  operatorId: string;
  operatorName: string;
}

/** Serialises the calls of one request id until the transaction ends: a second one waits, then finds the first one's record. */
export async function lockRedeliveryRequest(client: PoolClient, requestId: string): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1::text, 27))`, [requestId]);
}

export async function findOperatorRedelivery(db: Queryable, requestId: string): Promise<OperatorRedelivery | undefined> {
  const result = await db.query<OperatorRedelivery>(
    `SELECT request_id AS "requestId", delivery_id AS "deliveryId", partner_id AS "partnerId", state_before AS before, state_after AS after,
            next_attempt_at AS "nextAttemptAt", operator_id AS "operatorId", operator_name AS "operatorName"
       FROM operator_redeliveries WHERE request_id = $1`,
    [requestId],
  );
  return result.rows[0];
}

export async function insertOperatorRedelivery(client: PoolClient, record: OperatorRedelivery): Promise<void> {
  await client.query(
    `INSERT INTO operator_redeliveries (request_id, delivery_id, partner_id, state_before, state_after, next_attempt_at, operator_id, operator_name)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [record.requestId, record.deliveryId, record.partnerId, record.before, record.after, record.nextAttemptAt, record.operatorId, record.operatorName],
  );
}
