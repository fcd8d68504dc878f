import { appendAuditEntryInTransaction } from '@pwa/audit';
import { withTransaction, type Pool } from '@pwa/db';
import { approvedNotExecuted, findApprovalRequest, markApprovalRequestExecuted, type ApprovalRequest } from '../store/approval-request-store';
import { findOperatorById } from '../store/operator-store';

/** A funding (credit) or its correction (debit) as the wallet's admin route executes it. */
export interface ApprovedFunding {
  transferId: string;
  partnerId: string;
  currency: 'LRD' | 'USD';
  amountMinor: string;
  direction: 'credit' | 'debit';
  reference: string;
  actor: { operatorId: string; displayName: string };
  approval: { requestId: string; makerId: string; checkerId: string };
}

/** What the wallet answered: posted (perhaps before: replayed), or a refusal that will not change on a retry. */
export type FundingExecution =
  | { kind: 'posted'; transactionId: string; replayed: boolean; partnerBalanceMinor: string }
  | { kind: 'refused'; code: string; message: string };

/** The wallet's admin route; it throws when the wallet gave no answer (the request stays approved and is retried). */
export interface WalletAdmin {
  executeFunding(funding: ApprovedFunding, requestId: string | null): Promise<FundingExecution>;
}

export type ExecutionOutcome = { kind: 'executed'; request: ApprovalRequest } | { kind: 'failed'; request: ApprovalRequest } | { kind: 'not-approved' };

/**
 * Executes an approved request through its owning service, with the request id as the idempotency
 * key: run twice (a retry, two executors, a restart after a crash between the call and the
 * record), the wallet posts once and answers `replayed`, and only one execution is recorded here.
 * A refusal that cannot change (the partner's balance below a correction, say) ends the request
 * failed; no answer leaves it approved for the next sweep. Each outcome is audited, as the system
 * acting on the checker's approval.
 */
export async function executeApprovedRequest(pool: Pool, wallet: WalletAdmin, requestId: string, httpRequestId: string | null = null): Promise<ExecutionOutcome> {
  const request = await findApprovalRequest(pool, requestId);
  if (request?.status !== 'approved' || request.checkerId === null) return { kind: 'not-approved' };
  const checker = await findOperatorById(pool, request.checkerId);
  const execution = await wallet.executeFunding(fundingOf(request, checker?.displayName ?? 'unknown operator'), httpRequestId);
  const outcome = execution.kind === 'posted' ? 'executed' : 'failed';
  const result: Record<string, string | boolean> =
    execution.kind === 'posted'
      ? { transactionId: execution.transactionId, replayed: execution.replayed, partnerBalanceMinor: execution.partnerBalanceMinor }
      : { code: execution.code, message: execution.message };
  const recorded = await withTransaction(pool, async (client) => {
    const marked = await markApprovalRequestExecuted(client, requestId, result, outcome);
    if (marked) {
      await appendAuditEntryInTransaction(client, {
        actor: { kind: 'system', id: 'approval-execution', displayName: 'Approval execution' },
        action: 'approval_request.execute',
        target: { kind: 'approval_request', id: requestId },
        before: { status: 'approved' },
        after: { status: outcome, ...result },
        outcome: outcome === 'executed' ? 'done' : 'refused',
        reason: execution.kind === 'refused' ? `${execution.code}: ${execution.message}` : null,
        requestId: httpRequestId,
      });
    }
    return marked;
  });
  // Another executor recorded it first: the wallet moved the money once either way.
  if (!recorded) return { kind: 'not-approved' };
  return { kind: outcome, request: recorded };
}

/** The sweep after a restart or a wallet outage: every approved request not yet executed, oldest first, at most `limit`. */
export async function executeApprovedBacklog(pool: Pool, wallet: WalletAdmin, limit: number, onFailure: (requestId: string, error: unknown) => void): Promise<number> {
  let executed = 0;
  for (const request of await approvedNotExecuted(pool, limit)) {
    try {
      if ((await executeApprovedRequest(pool, wallet, request.requestId)).kind !== 'not-approved') executed += 1;
    } catch (error) {
      onFailure(request.requestId, error);
    }
  }
  return executed;
}

function fundingOf(request: ApprovalRequest, checkerName: string): ApprovedFunding {
  const parameters = request.parameters as { currency: 'LRD' | 'USD'; amountMinor: string; direction?: 'credit' | 'debit' };
  return {
    transferId: request.requestId,
    partnerId: String(request.target.id),
    currency: parameters.currency,
    amountMinor: parameters.amountMinor,
    direction: request.action === 'partner.fund' ? 'credit' : (parameters.direction ?? 'debit'),
    reference: request.reason,
    actor: { operatorId: request.checkerId ?? '', displayName: checkerName },
    approval: { requestId: request.requestId, makerId: request.makerId, checkerId: request.checkerId ?? '' },
  };
}
