import type { PoolClient, Queryable } from '@pwa/db';

/**
 * Who made the partner changes that need one person only (operator_actions, migration
 * 1700000000400), keyed by the back-office's request id: the change's idempotency key. Serialised
 * per request id with @pwa/runtime's lockRequestId.
 */
export type OperatorActionKind =
  | 'partner.onboard'
  | 'partner.webhook_url.set'
  | 'partner.client_secret.rotate'
  | 'partner.webhook_secret.rotate'
  | 'partner.client_secret.add_second'
  | 'partner.client_secret.revoke_previous';

export interface OperatorActionRecord {
  requestId: string;
  action: OperatorActionKind;
  partnerId: string;
  parameters: Record<string, unknown>;
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
  operatorId: string;
  operatorName: string;
  /** A person of the operator (the default) or a member of the partner's team (the dashboard). */
  actorKind?: 'operator' | 'member';
}

const columns = `request_id AS "requestId", action, partner_id AS "partnerId", parameters, before, after, operator_id AS "operatorId", operator_name AS "operatorName"`;

export async function findOperatorAction(db: Queryable, requestId: string): Promise<OperatorActionRecord | undefined> {
  const result = await db.query<OperatorActionRecord>(`SELECT ${columns} FROM operator_actions WHERE request_id = $1`, [requestId]);
  return result.rows[0];
}

export async function insertOperatorAction(client: PoolClient, record: OperatorActionRecord): Promise<void> {
  await client.query(
    `INSERT INTO operator_actions (request_id, action, partner_id, parameters, before, after, operator_id, operator_name, actor_kind) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      record.requestId,
      record.action,
      record.partnerId,
      JSON.stringify(record.parameters),
      record.before === null ? null : JSON.stringify(record.before),
      JSON.stringify(record.after),
      record.operatorId,
      record.operatorName,
      record.actorKind ?? 'operator',
    ],
  );
}

export interface RecordedOperatorAction {
  requestId: string;
  action: OperatorActionKind;
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
  operatorId: string;
  operatorName: string;
  actorKind: 'operator' | 'member';
  recordedAt: string;
}

/** One partner's recorded actions, newest first, at most `limit`. */
export async function partnerOperatorActions(db: Queryable, partnerId: string, limit: number): Promise<RecordedOperatorAction[]> {
  const result = await db.query<RecordedOperatorAction & { recordedAt: Date }>(
    `SELECT request_id AS "requestId", action, before, after, operator_id AS "operatorId", operator_name AS "operatorName", actor_kind AS "actorKind", recorded_at AS "recordedAt"
       FROM operator_actions WHERE partner_id = $1 ORDER BY recorded_at DESC LIMIT $2`,
    [partnerId, limit],
  );
  return result.rows.map((row) => ({ ...row, recordedAt: row.recordedAt.toISOString() }));
}
