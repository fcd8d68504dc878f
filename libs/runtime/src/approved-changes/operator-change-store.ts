import type { PoolClient, Queryable } from '@pwa/db';

/**
 * Who, why and which approval of an approved settings change the back-office executed on an
 * owning service (decision 0069): one row of the service's `operator_changes` table (each owner's
 * migration creates it in its schema, append-only, four eyes by CHECK), keyed by the approval
 * request id, the change's idempotency key.
 */
export interface OperatorChangeRecord<Action extends string = string> {
  requestId: string;
  action: Action;
  target: string;
  parameters: Record<string, unknown>;
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
  reason: string;
  operatorId: string;
  operatorName: string;
  makerId: string;
  checkerId: string;
}

interface OperatorChangeRow {
  request_id: string;
  action: string;
  target: string;
  parameters: Record<string, unknown>;
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
  reason: string;
  operator_id: string;
  operator_name: string;
  maker_id: string;
  checker_id: string;
}

/**
 * Serialises the executions of one request id until the transaction ends: a second call with the
 * same id waits here, then finds the first one's record.
 */
export async function lockRequestId(client: PoolClient, requestId: string): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1::text, 69))`, [requestId]);
}

export async function findOperatorChange(db: Queryable, requestId: string): Promise<OperatorChangeRecord | undefined> {
  const result = await db.query<OperatorChangeRow>(`SELECT request_id, action, target, parameters, before, after, reason, operator_id, operator_name, maker_id, checker_id FROM operator_changes WHERE request_id = $1`, [requestId]);
  const row = result.rows[0];
  if (!row) return undefined;
  return {
    requestId: row.request_id,
    action: row.action,
    target: row.target,
    parameters: row.parameters,
    before: row.before,
    after: row.after,
    reason: row.reason,
    operatorId: row.operator_id,
    operatorName: row.operator_name,
    makerId: row.maker_id,
    checkerId: row.checker_id,
  };
}

export async function insertOperatorChange(client: PoolClient, record: OperatorChangeRecord): Promise<void> {
  await client.query(
    `INSERT INTO operator_changes (request_id, action, target, parameters, before, after, reason, operator_id, operator_name, maker_id, checker_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      record.requestId,
      record.action,
      record.target,
      JSON.stringify(record.parameters),
      record.before === null ? null : JSON.stringify(record.before),
      JSON.stringify(record.after),
      record.reason,
      record.operatorId,
      record.operatorName,
      record.makerId,
      record.checkerId,
    ],
  );
}
