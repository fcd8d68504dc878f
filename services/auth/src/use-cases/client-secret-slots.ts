import { isDeepStrictEqual } from 'node:util';
import { adminChangeRefusalCodes, type ClientSecretChangeAnswer, type ClientSecretChangeRequest, type ClientSecretSlots } from '@pwa/contracts';
import { withTransaction, type Pool } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import { lockRequestId } from '@pwa/runtime';
import { addSecondSecret, clientSecretSlotsOf, promoteSecondSecret } from '../store/client-secret-slot-store';
import { findOperatorAction, insertOperatorAction } from '../store/operator-action-store';
import { lockPartnerById } from '../store/partner-store';
import { actingPersonOf } from './acting-person';
import { newClientSecret, recordPartnerEvent } from './manage-partners';

/**
 * A client secret rotated without downtime (issue 28), by a person on the back-office or a member
 * of the partner's team: `add_second` issues a second secret, shown once, that the token endpoint
 * accepts beside the current one; `revoke_previous` makes it the only secret and the previous one
 * stops at once. Each request id applies once (a replay answers the same, never the secret again),
 * and the partner's row is locked, so two adds at once give one second secret and one refusal.
 */
export async function changeClientSecrets(pool: Pool, environment: string, request: ClientSecretChangeRequest): Promise<ClientSecretChangeAnswer> {
  const person = actingPersonOf(request.actor, request.partnerId);
  const action = request.step === 'add_second' ? 'partner.client_secret.add_second' : 'partner.client_secret.revoke_previous';
  const parameters = { step: request.step };
  // Hashing is slow: done before the transaction, wasted only on a replay or a refusal.
  const fresh = request.step === 'add_second' ? await newClientSecret(environment) : undefined;
  return withTransaction(pool, async (client) => {
    await lockRequestId(client, request.requestId);
    const earlier = await findOperatorAction(client, request.requestId);
    if (earlier) {
      if (earlier.action !== action || earlier.partnerId !== request.partnerId || !isDeepStrictEqual(earlier.parameters, parameters)) {
        throw new PkcError(adminChangeRefusalCodes.requestIdUsedOtherwise, `Request id ${request.requestId} was used for another change; nothing was changed`);
      }
      return { ...(await slotsOrRefuse(client, request.partnerId)), requestId: request.requestId, replayed: true, partnerId: request.partnerId, step: request.step, clientSecret: null };
    }
    const partner = await lockPartnerById(client, request.partnerId);
    if (!partner) throw new PkcError(adminChangeRefusalCodes.targetNotFound, `No partner has id ${request.partnerId}; nothing was changed`);
    const before = await slotsOrRefuse(client, request.partnerId);
    if (fresh !== undefined) {
      if (!(await addSecondSecret(client, request.partnerId, fresh.clientSecretHash))) {
        throw new PkcError(adminChangeRefusalCodes.targetCannotChange, 'A second client secret is held already: revoke the previous secret (or keep both) before adding another');
      }
    } else if (!(await promoteSecondSecret(client, request.partnerId))) {
      throw new PkcError(adminChangeRefusalCodes.targetCannotChange, 'There is no second client secret: add one, deploy it, then revoke the previous one');
    } else {
      await recordPartnerEvent(client, 'partner.secret_rotated', partner);
    }
    const after = await slotsOrRefuse(client, request.partnerId);
    await insertOperatorAction(client, {
      requestId: request.requestId,
      action,
      partnerId: request.partnerId,
      parameters,
      // When each secret started, never a secret or a hash.
      before: { currentSince: before.currentSince, secondSince: before.secondSince },
      after: { currentSince: after.currentSince, secondSince: after.secondSince },
      ...person,
    });
    return { ...after, requestId: request.requestId, replayed: false, partnerId: request.partnerId, step: request.step, clientSecret: fresh?.clientSecret ?? null };
  });
}

export async function clientSecretSlots(db: Pick<Pool, 'query'>, partnerId: string): Promise<ClientSecretSlots | undefined> {
  const row = await clientSecretSlotsOf(db, partnerId);
  return row === undefined ? undefined : { clientId: row.clientId, currentSince: row.currentSince.toISOString(), secondSince: row.secondSince?.toISOString() ?? null };
}

async function slotsOrRefuse(db: Pick<Pool, 'query'>, partnerId: string): Promise<ClientSecretSlots> {
  const slots = await clientSecretSlots(db, partnerId);
  if (slots === undefined) throw new PkcError(adminChangeRefusalCodes.targetNotFound, `No partner has id ${partnerId}; nothing was changed`);
  return slots;
}
