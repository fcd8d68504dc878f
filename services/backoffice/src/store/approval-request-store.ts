import { createdAtKeySql, keysetPageQuery, type KeysetPosition, type Queryable } from '@pwa/db';
import type { ApprovalStatus, FourEyesAction } from '../domain/approval-rules';

export interface NewApprovalRequest {
  requestId: string;
  action: FourEyesAction;
  target: Record<string, unknown>;
  parameters: Record<string, unknown>;
  reason: string;
  makerId: string;
  lifetimeSeconds: number;
}

/** A stored request: what the maker asked for (its lifetime became expiresAt), then its decision and execution. */
export interface ApprovalRequest extends Omit<NewApprovalRequest, 'lifetimeSeconds'> {
  requestedAt: Date;
  expiresAt: Date;
  status: ApprovalStatus;
  checkerId: string | null;
  decidedAt: Date | null;
  decisionNote: string | null;
  executedAt: Date | null;
  executionResult: Record<string, unknown> | null;
}

/** Every column, named as the ApprovalRequest field it fills: rows come back as requests, with no mapping code. */
const columns = `id AS "requestId", action, target, parameters, reason, maker_id AS "makerId", requested_at AS "requestedAt", expires_at AS "expiresAt",
  status, checker_id AS "checkerId", decided_at AS "decidedAt", decision_note AS "decisionNote", executed_at AS "executedAt", execution_result AS "executionResult"`;

/** Stores a pending request; its expiry comes from the database clock, the one decisions compare against. */
export async function insertApprovalRequest(db: Queryable, request: NewApprovalRequest): Promise<ApprovalRequest> {
  const result = await db.query<ApprovalRequest>(
    `INSERT INTO approval_requests (id, action, target, parameters, reason, maker_id, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7::double precision))
     RETURNING ${columns}`,
    [request.requestId, request.action, JSON.stringify(request.target), JSON.stringify(request.parameters), request.reason, request.makerId, request.lifetimeSeconds],
  );
  return result.rows[0] as ApprovalRequest;
}

export async function findApprovalRequest(db: Queryable, requestId: string): Promise<ApprovalRequest | undefined> {
  const result = await db.query<ApprovalRequest>(`SELECT ${columns} FROM approval_requests WHERE id = $1`, [requestId]);
  return result.rows[0];
}

/**
 * Records a checker's decision in one conditional UPDATE: only a pending, unexpired request made by
 * someone else changes. Two checkers at once, the same checker twice, or a decision racing the
 * expiry: exactly one statement matches and the others get undefined (the caller reads the request
 * to say why). The database's CHECK refuses a maker deciding their own request even if a caller forgot.
 */
export async function decideApprovalRequest(
  db: Queryable,
  decision: { requestId: string; checkerId: string; outcome: 'approved' | 'rejected'; note?: string },
): Promise<ApprovalRequest | undefined> {
  const result = await db.query<ApprovalRequest>(
    `UPDATE approval_requests
        SET status = $3, checker_id = $2, decided_at = now(), decision_note = $4
      WHERE id = $1 AND status = 'pending' AND expires_at > now() AND maker_id <> $2
      RETURNING ${columns}`,
    [decision.requestId, decision.checkerId, decision.outcome, decision.note ?? null],
  );
  return result.rows[0];
}

/**
 * Marks an approved request executed (or failed: refused for good by its owning service) with what it answered; undefined when it was
 * not approved or is already executed (a second executor after a retry or a crash: the owning
 * service saw the same idempotency key and changed nothing).
 */
export async function markApprovalRequestExecuted(
  db: Queryable,
  requestId: string,
  executionResult: Record<string, unknown>,
  outcome: 'executed' | 'failed' = 'executed',
): Promise<ApprovalRequest | undefined> {
  const result = await db.query<ApprovalRequest>(
    `UPDATE approval_requests SET status = $3, executed_at = now(), execution_result = $2
      WHERE id = $1 AND status = 'approved'
      RETURNING ${columns}`,
    [requestId, JSON.stringify(executionResult), outcome],
  );
  return result.rows[0];
}

/** Approved requests not yet executed, oldest decision first: what a restart must finish. */
export async function approvedNotExecuted(db: Queryable, limit: number): Promise<ApprovalRequest[]> {
  const result = await db.query<ApprovalRequest>(`SELECT ${columns} FROM approval_requests WHERE status = 'approved' ORDER BY decided_at, id LIMIT $1`, [limit]);
  return result.rows;
}

/** Marks every pending request past its expiry expired (at most `limit` per call); answers their ids. */
export async function expireDueApprovalRequests(db: Queryable, limit: number): Promise<string[]> {
  const result = await db.query<{ id: string }>(
    `UPDATE approval_requests SET status = 'expired'
      WHERE id IN (SELECT id FROM approval_requests WHERE status = 'pending' AND expires_at <= now() ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        AND status = 'pending'
      RETURNING id`,
    [limit],
  );
  return result.rows.map((row) => row.id);
}

/** One page of the requests in a status, newest first; `next` is where the following page starts. */
export async function listApprovalRequests(
  db: Queryable,
  read: { status: ApprovalStatus; after: KeysetPosition | undefined; pageSize: number },
): Promise<{ requests: ApprovalRequest[]; next: KeysetPosition | undefined }> {
  const { sql, values } = keysetPageQuery({
    columns: `${columns}, ${createdAtKeySql('requested_at')}`,
    from: 'FROM approval_requests',
    createdAtColumn: 'requested_at',
    idColumn: 'id',
    scope: [(placeholder) => `status = ${placeholder}`, read.status],
    filters: [],
    after: read.after,
    rowCount: read.pageSize + 1,
  });
  const result = await db.query<ApprovalRequest & { created_at_key: string }>(sql, values);
  const rows = result.rows.slice(0, read.pageSize);
  const last = rows.at(-1);
  const requests = rows.map(({ created_at_key: _position, ...request }) => request);
  return { requests, next: result.rows.length > read.pageSize && last ? { createdAt: last.created_at_key, id: last.requestId } : undefined };
}
