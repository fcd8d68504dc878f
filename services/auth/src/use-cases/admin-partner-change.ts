import { adminChangeRefusalCodes, type AdminChangeAnswer, type AuthPartnerChangeRequest } from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import { applyApprovedChangeOnce } from '@pwa/runtime';
import type { Partner, PartnerWithSecretHash } from '../domain/partner';
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
  return applyApprovedChangeOnce(pool, request, {
    action: actionOf(request.change),
    target: request.partnerId,
    parameters: { ...request.change },
    apply: async (client) => {
      const current = await lockPartnerById(client, request.partnerId);
      if (!current) throw new PkcError(adminChangeRefusalCodes.targetNotFound, `No partner has id ${request.partnerId}; nothing was changed`);
      const updated: PartnerWithSecretHash = { ...current, ...request.change };
      await updatePartner(client, updated, false);
      await recordPartnerEvent(client, 'partner.updated', updated);
      return { before: settingsOf(current), after: settingsOf(updated) };
    },
  });
}

/** The approved changes of a partner's settings (the CHECK of auth's operator_changes). */
export type OperatorChangeAction = 'partner.status.set' | 'partner.permissions.set' | 'partner.rate_limit.set';

function actionOf(change: AuthPartnerChangeRequest['change']): OperatorChangeAction {
  if ('status' in change) return 'partner.status.set';
  if ('permissions' in change) return 'partner.permissions.set';
  return 'partner.rate_limit.set';
}

/** The settings an approval changes, as recorded and answered: never the client secret's hash. */
function settingsOf(partner: Partner): Record<string, unknown> {
  return { status: partner.status, permissions: [...partner.permissions], rateLimitPerMinute: partner.rateLimitPerMinute };
}
