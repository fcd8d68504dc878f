import { isDeepStrictEqual } from 'node:util';
import { adminApprovalProblemOf, adminChangeRefusalCodes, type AdminActor, type AdminApproval, type AdminChangeAnswer } from '@pwa/contracts';
import { withTransaction, type Pool, type PoolClient } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import { findOperatorChange, insertOperatorChange, lockRequestId } from './operator-change-store';

/** What every approved settings change carries from the back-office: the approval, the person executing it, the maker's reason. */
export interface ApprovedChangeRequest {
  requestId: string;
  reason: string;
  actor: AdminActor;
  approval: AdminApproval;
}

/** The change itself: what it is, on what, as asked; and how to apply it inside the transaction. */
export interface ApprovedChange<Action extends string> {
  action: Action;
  target: string;
  parameters: Record<string, unknown>;
  /** Changes the settings under their row lock and answers them before (null: none yet) and after; throws a PkcError to refuse. */
  apply(client: PoolClient): Promise<{ before: Record<string, unknown> | null; after: Record<string, unknown> }>;
}

/**
 * An approved settings change (decision 0069), applied once per approval request: refused without
 * four eyes (403 PKC_6005); under the request id's lock, an earlier record of it is answered as it
 * was (`replayed`: nothing changes; a different change under that id is 409 PKC_6001), else the
 * change applies and the record of who, which approval, before and after commits with it.
 */
export async function applyApprovedChangeOnce<Action extends string>(pool: Pool, request: ApprovedChangeRequest, change: ApprovedChange<Action>): Promise<AdminChangeAnswer> {
  const problem = adminApprovalProblemOf(request);
  if (problem !== undefined) throw new PkcError(adminChangeRefusalCodes.notApproved, problem);
  return withTransaction(pool, async (client) => {
    await lockRequestId(client, request.requestId);
    const earlier = await findOperatorChange(client, request.requestId);
    if (earlier) {
      if (earlier.action !== change.action || earlier.target !== change.target || !isDeepStrictEqual(earlier.parameters, change.parameters)) {
        throw new PkcError(adminChangeRefusalCodes.requestIdUsedOtherwise, `Request id ${request.requestId} was used for another change; nothing was changed`);
      }
      return { requestId: request.requestId, replayed: true, before: earlier.before, after: earlier.after };
    }
    const { before, after } = await change.apply(client);
    await insertOperatorChange(client, {
      requestId: request.requestId,
      action: change.action,
      target: change.target,
      parameters: change.parameters,
      before,
      after,
      reason: request.reason,
      operatorId: request.actor.operatorId,
      operatorName: request.actor.displayName,
      makerId: request.approval.makerId,
      checkerId: request.approval.checkerId,
    });
    return { requestId: request.requestId, replayed: false, before, after };
  });
}
