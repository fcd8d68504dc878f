import { randomUUID } from 'node:crypto';
import { appendAuditEntry, appendAuditEntryInTransaction, type AuditEntryInput, type JsonValue } from '@pwa/audit';
import { withTransaction, type Pool } from '@pwa/db';
import { checkFourEyesChange, ownerCheckedTargetOf, type OwnerCheckedTarget } from '../domain/four-eyes-changes';
import { decisionRefusal, executableFourEyesActions, isFourEyesAction, mayRequestChange, requestLifetimeSeconds, type DecisionRefusal } from '../domain/approval-rules';
import { decideApprovalRequest, expireDueApprovalRequests, findApprovalRequest, insertApprovalRequest, type ApprovalRequest } from '../store/approval-request-store';
import { findOperatorById, type Operator } from '../store/operator-store';
import type { RequestOrigin } from './people-dependencies';

/**
 * The maker's request and the checker's decision of a four-eyes change (decision 0062). The acting
 * person is read from the database on every call (roles and status as they are now, never as a
 * client says), each change and its audit entry commit together, and each refusal is audited too.
 * A target its owner can tell exists is checked when the request is made (a partner with auth, a
 * disbursement not reversed yet with the wallet), so no checker is asked to approve a change to
 * something that is not there. Executing an approved request is
 * execute-approved-request.ts.
 */
export type RequestChangeOutcome =
  | { kind: 'requested'; request: ApprovalRequest }
  | {
      kind: 'refused';
      reason: 'not-an-active-operator' | 'not-a-maker' | 'unknown-action' | 'not-executable-yet' | 'bad-lifetime' | 'reason-required' | 'unknown-target' | 'target-changed-already' | 'owner-unavailable';
    }
  | { kind: 'refused'; reason: 'invalid-change'; problems: string[] };

/** Auth's answer to "does this partner exist"; throws when auth gave no answer. */
export interface PartnerDirectory {
  partnerExists(partnerId: string, httpRequestId: string | null): Promise<boolean>;
}

/** The wallet's answer to "is there a completed disbursement with this referenceId, and is it reversed"; throws when the wallet gave no answer. */
export interface DisbursementDirectory {
  disbursementState(referenceId: string, httpRequestId: string | null): Promise<'reversible' | 'reversed' | 'unknown'>;
}

/** The owners that tell whether a request's target is there. */
export type TargetDirectory = PartnerDirectory & DisbursementDirectory;

async function targetState(targets: TargetDirectory, target: OwnerCheckedTarget, httpRequestId: string | null): Promise<'there' | 'unknown' | 'changed-already'> {
  if (target.kind === 'partner') return (await targets.partnerExists(target.partnerId, httpRequestId)) ? 'there' : 'unknown';
  const state = await targets.disbursementState(target.referenceId, httpRequestId);
  return state === 'reversible' ? 'there' : state === 'reversed' ? 'changed-already' : 'unknown';
}

export async function requestFourEyesChange(
  pool: Pool,
  actorId: string,
  change: { action: string; target: { kind: string; id: string }; parameters: { [key: string]: JsonValue }; reason: string; lifetimeSeconds?: number },
  origin: RequestOrigin,
  targets: TargetDirectory,
): Promise<RequestChangeOutcome> {
  const actor = await activeOperator(pool, actorId);
  const refuse = async (reason: Exclude<Extract<RequestChangeOutcome, { kind: 'refused' }>['reason'], 'invalid-change'>, problems?: string[]): Promise<RequestChangeOutcome> => {
    await appendAuditEntry(pool, auditOf(actor, actorId, origin, { action: 'approval_request.create', target: change.target, outcome: 'refused', reason: problems ? `invalid-change: ${problems.join('; ')}` : reason, after: { action: change.action } }));
    return problems ? { kind: 'refused', reason: 'invalid-change', problems } : { kind: 'refused', reason };
  };
  if (!actor) return refuse('not-an-active-operator');
  if (!mayRequestChange(actor.roles)) return refuse('not-a-maker');
  if (!isFourEyesAction(change.action)) return refuse('unknown-action');
  if (!executableFourEyesActions.includes(change.action)) return refuse('not-executable-yet');
  const checked = checkFourEyesChange(change.action, change);
  if (!checked.ok) return refuse('unknown-action', checked.problems);
  const reason = change.reason.trim();
  if (reason.length === 0 || reason.length > 500) return refuse('reason-required');
  let lifetimeSeconds: number;
  try {
    lifetimeSeconds = requestLifetimeSeconds(change.lifetimeSeconds);
  } catch {
    return refuse('bad-lifetime');
  }
  const checkedTarget = ownerCheckedTargetOf(change.action, change.target);
  if (checkedTarget !== undefined) {
    let state: Awaited<ReturnType<typeof targetState>>;
    try {
      state = await targetState(targets, checkedTarget, origin.requestId);
    } catch {
      return refuse('owner-unavailable');
    }
    if (state === 'unknown') return refuse('unknown-target');
    if (state === 'changed-already') return refuse('target-changed-already');
  }
  const action = change.action;
  return withTransaction(pool, async (client) => {
    const request = await insertApprovalRequest(client, { requestId: randomUUID(), action, target: change.target, parameters: change.parameters, reason, makerId: actor.operatorId, lifetimeSeconds });
    await appendAuditEntryInTransaction(
      client,
      auditOf(actor, actorId, origin, { action: 'approval_request.create', target: { kind: 'approval_request', id: request.requestId }, outcome: 'done', after: { action, target: change.target, parameters: change.parameters, reason, expiresAt: request.expiresAt.toISOString() } }),
    );
    return { kind: 'requested', request } as const;
  });
}

export type DecideChangeOutcome =
  | { kind: 'decided'; request: ApprovalRequest }
  | { kind: 'refused'; reason: DecisionRefusal | 'not-an-active-operator' | 'not-found' };

export async function decideFourEyesChange(
  pool: Pool,
  actorId: string,
  decision: { requestId: string; outcome: 'approved' | 'rejected'; note?: string },
  origin: RequestOrigin,
): Promise<DecideChangeOutcome> {
  const actor = await activeOperator(pool, actorId);
  const target = { kind: 'approval_request', id: decision.requestId };
  const action = decision.outcome === 'approved' ? 'approval_request.approve' : 'approval_request.reject';
  const refuse = async (reason: Extract<DecideChangeOutcome, { kind: 'refused' }>['reason']): Promise<DecideChangeOutcome> => {
    await appendAuditEntry(pool, auditOf(actor, actorId, origin, { action, target, outcome: 'refused', reason }));
    return { kind: 'refused', reason };
  };
  if (!actor) return refuse('not-an-active-operator');
  const current = await findApprovalRequest(pool, decision.requestId);
  if (!current) return refuse('not-found');
  const early = decisionRefusal(current, { operatorId: actor.operatorId, roles: actor.roles }, new Date());
  if (early) return refuse(early);
  const decided = await withTransaction(pool, async (client) => {
    const updated = await decideApprovalRequest(client, { requestId: decision.requestId, checkerId: actor.operatorId, outcome: decision.outcome, ...(decision.note === undefined ? {} : { note: decision.note }) });
    if (updated) {
      await appendAuditEntryInTransaction(client, auditOf(actor, actorId, origin, { action, target, outcome: 'done', before: { status: 'pending' }, after: { status: updated.status, note: updated.decisionNote } }));
    }
    return updated;
  });
  if (decided) return { kind: 'decided', request: decided };
  // Another decision or the expiry won the race since the read: say which, from the row as it is now.
  const now = await findApprovalRequest(pool, decision.requestId);
  return refuse((now && decisionRefusal(now, { operatorId: actor.operatorId, roles: actor.roles }, new Date())) ?? 'already-decided');
}

/** The expiry sweep: every pending request past its expiry becomes expired, each with an audit entry by the system. */
export async function expireDueRequests(pool: Pool, limit = 500): Promise<string[]> {
  return withTransaction(pool, async (client) => {
    const expired = await expireDueApprovalRequests(client, limit);
    for (const requestId of expired) {
      await appendAuditEntryInTransaction(client, {
        actor: { kind: 'system', id: 'approval-expiry', displayName: 'Approval expiry' },
        action: 'approval_request.expire',
        target: { kind: 'approval_request', id: requestId },
        before: { status: 'pending' },
        after: { status: 'expired' },
        outcome: 'done',
      });
    }
    return expired;
  });
}

async function activeOperator(pool: Pool, operatorId: string): Promise<Operator | undefined> {
  const operator = await findOperatorById(pool, operatorId);
  return operator?.status === 'active' ? operator : undefined;
}

function auditOf(
  actor: Operator | undefined,
  actorId: string,
  origin: RequestOrigin,
  entry: Pick<AuditEntryInput, 'action' | 'target' | 'outcome' | 'reason' | 'before' | 'after'>,
): AuditEntryInput {
  return {
    ...entry,
    actor: { kind: 'person', id: actor?.operatorId ?? actorId, displayName: actor?.displayName ?? 'unknown operator' },
    address: origin.address,
    userAgent: origin.userAgent,
    requestId: origin.requestId,
  };
}
