import { adminChangeRefusalCodes, type AdminActor, type ClientSecretActor, type MemberActor } from '@pwa/contracts';
import { PkcError } from '@pwa/errors';

/** The person an operator action records: an operator of the back-office, or a member of the partner's team. */
export interface ActingPerson {
  operatorId: string;
  operatorName: string;
  actorKind: 'operator' | 'member';
}

/**
 * Who acts on the partner's settings, as the operator actions record them. A member acts only for
 * their own partner: a member naming another partner is refused (403 PKC_6005) before anything changes.
 */
export function actingPersonOf(actor: AdminActor | MemberActor | ClientSecretActor, partnerId: string): ActingPerson {
  if ('operatorId' in actor) return { operatorId: actor.operatorId, operatorName: actor.displayName, actorKind: 'operator' };
  if (actor.kind === 'member' && actor.partnerId !== partnerId) {
    throw new PkcError(adminChangeRefusalCodes.notApproved, 'A member changes only their own partner’s settings; nothing was changed');
  }
  return { operatorId: actor.id, operatorName: actor.displayName, actorKind: actor.kind };
}
