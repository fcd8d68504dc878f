import { isDeepStrictEqual } from 'node:util';
import { adminApprovalProblemOf, adminChangeRefusalCodes, type AdminChangeAnswer, type AuthPartnerChangeRequest } from '@pwa/contracts';
import { withTransaction, type Pool } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import type { Partner, PartnerWithSecretHash } from '../domain/partner';
import { findOperatorChange, insertOperatorChange, lockRequestId, type OperatorChangeAction } from '../store/operator-change-store';
import { lockPartnerById, updatePartner } from '../store/partner-store';
import { recordPartnerEvent } from './manage-partners';

/**
 * The back-office's approved change of a partner's status, permissions or rate limit (decision
 * 0069), applied once per approval request: under the request id's lock, an earlier record of it is
 * answered as it was (`replayed`: nothing changes, no second partner.updated; a different change
 * under that id is 409 PKC_6001), else the partner changes under its row lock, partner.updated goes
 * to the outbox and the record of who, which approval, before and after commits with them.
 * Refusals change nothing: 403 PKC_6005 without four eyes, 404 PKC_6002 for an unknown partner.
 */
export async function executeAdminPartnerChange(pool: Pool, request: AuthPartnerChangeRequest): Promise<AdminChangeAnswer> {
  const problem = adminApprovalProblemOf(request);
  if (problem !== undefined) throw new PkcError(adminChangeRefusalCodes.notApproved, problem);
  const action = actionOf(request.change);
  const parameters: Record<string, unknown> = { ...request.change };
  return withTransaction(pool, async (client) => {
    await lockRequestId(client, request.requestId);
    const earlier = await findOperatorChange(client, request.requestId);
    if (earlier) {
      if (earlier.action !== action || earlier.target !== request.partnerId || !isDeepStrictEqual(earlier.parameters, parameters)) {
        throw new PkcError(adminChangeRefusalCodes.requestIdUsedOtherwise, `Request id ${request.requestId} was used for another change; nothing was changed`);
      }
      return { requestId: request.requestId, replayed: true, before: earlier.before, after: earlier.after };
    }
    const current = await lockPartnerById(client, request.partnerId);
    if (!current) throw new PkcError(adminChangeRefusalCodes.targetNotFound, `No partner has id ${request.partnerId}; nothing was changed`);
    const updated: PartnerWithSecretHash = { ...current, ...request.change };
    await updatePartner(client, updated, false);
    await recordPartnerEvent(client, 'partner.updated', updated);
    const before = settingsOf(current);
    const after = settingsOf(updated);
    await insertOperatorChange(client, {
      requestId: request.requestId,
      action,
      target: request.partnerId,
      parameters,
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

function actionOf(change: AuthPartnerChangeRequest['change']): OperatorChangeAction {
  if ('status' in change) return 'partner.status.set';
  if ('permissions' in change) return 'partner.permissions.set';
  return 'partner.rate_limit.set';
}

/** The settings an approval changes, as recorded and answered: never the client secret's hash. */
function settingsOf(partner: Partner): Record<string, unknown> {
  return { status: partner.status, permissions: [...partner.permissions], rateLimitPerMinute: partner.rateLimitPerMinute };
}
