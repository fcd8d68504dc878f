import { appendAuditEntryInTransaction, type JsonValue } from '@pwa/audit';
import { withTransaction, type Pool } from '@pwa/db';
import type { FourEyesAction } from '../domain/approval-rules';
import { approvedNotExecuted, findApprovalRequest, markApprovalRequestExecuted, type ApprovalRequest } from '../store/approval-request-store';
import { findOperatorById } from '../store/operator-store';

/** An approved request as its owning service executes it: the change, the person who executes it (the checker) and the approval. */
export interface ApprovedChange {
  request: ApprovalRequest;
  actor: { operatorId: string; displayName: string };
  approval: { requestId: string; makerId: string; checkerId: string };
}

/**
 * What the owning service answered: done (perhaps earlier: `replayed` in the result), with the
 * values before and after where it has them; or a refusal that a retry would meet again.
 */
export type AdminExecution =
  | { kind: 'done'; result: { [key: string]: JsonValue }; before?: JsonValue; after?: JsonValue }
  | { kind: 'refused'; code: string; message: string };

/**
 * Executes one action's approved change through its owning service's admin route, with the
 * request id as the idempotency key. Throws when the owner gave no answer (the request stays
 * approved and the sweep sends it again).
 */
export type ActionExecutor = (change: ApprovedChange, httpRequestId: string | null) => Promise<AdminExecution>;

/** One executor per four-eyes action: a new action does not compile until it says how it executes. */
export type ActionExecutors = Readonly<Record<FourEyesAction, ActionExecutor>>;

export interface ExecutionPorts {
  executors: ActionExecutors;
}

export type ExecutionOutcome = { kind: 'executed'; request: ApprovalRequest } | { kind: 'failed'; request: ApprovalRequest } | { kind: 'not-approved' };

/**
 * Executes an approved request through its owning service, with the request id as the idempotency
 * key: run twice (a retry, two executors, a restart after a crash between the call and the
 * record), the owner applies it once and answers `replayed`, and only one execution is recorded
 * here. A refusal that cannot change (the partner's balance below a correction, a disbursement
 * reversed already) ends the request failed; no answer leaves it approved for the next sweep. Each
 * outcome is audited with the values before and after, as the system acting on the checker's approval.
 */
export async function executeApprovedRequest(pool: Pool, ports: ExecutionPorts, requestId: string, httpRequestId: string | null = null): Promise<ExecutionOutcome> {
  const request = await findApprovalRequest(pool, requestId);
  if (request?.status !== 'approved' || request.checkerId === null) return { kind: 'not-approved' };
  const checker = await findOperatorById(pool, request.checkerId);
  const change: ApprovedChange = {
    request,
    actor: { operatorId: request.checkerId, displayName: checker?.displayName ?? 'unknown operator' },
    approval: { requestId: request.requestId, makerId: request.makerId, checkerId: request.checkerId },
  };
  const execution = await ports.executors[request.action](change, httpRequestId);
  const outcome = execution.kind === 'done' ? 'executed' : 'failed';
  const result: { [key: string]: JsonValue } = execution.kind === 'done' ? execution.result : { code: execution.code, message: execution.message };
  const recorded = await withTransaction(pool, async (client) => {
    const marked = await markApprovalRequestExecuted(client, requestId, result, outcome);
    if (marked) {
      await appendAuditEntryInTransaction(client, {
        actor: { kind: 'system', id: 'approval-execution', displayName: 'Approval execution' },
        action: 'approval_request.execute',
        target: { kind: 'approval_request', id: requestId },
        before: { status: 'approved', action: request.action, target: request.target as { [key: string]: JsonValue }, ...(execution.kind === 'done' && execution.before !== undefined ? { values: execution.before } : {}) },
        after: { status: outcome, ...result, ...(execution.kind === 'done' && execution.after !== undefined ? { values: execution.after } : {}) },
        outcome: outcome === 'executed' ? 'done' : 'refused',
        reason: execution.kind === 'refused' ? `${execution.code}: ${execution.message}` : null,
        requestId: httpRequestId,
      });
    }
    return marked;
  });
  // Another executor recorded it first: the owner applied the change once either way.
  if (!recorded) return { kind: 'not-approved' };
  return { kind: outcome, request: recorded };
}

/** The sweep after a restart or an owner's outage: every approved request not yet executed, oldest first, at most `limit`. */
export async function executeApprovedBacklog(pool: Pool, ports: ExecutionPorts, limit: number, onFailure: (requestId: string, error: unknown) => void): Promise<number> {
  let executed = 0;
  for (const request of await approvedNotExecuted(pool, limit)) {
    try {
      if ((await executeApprovedRequest(pool, ports, request.requestId)).kind !== 'not-approved') executed += 1;
    } catch (error) {
      onFailure(request.requestId, error);
    }
  }
  return executed;
}
