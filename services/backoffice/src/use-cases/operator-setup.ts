import { appendAuditEntryInTransaction } from '@pwa/audit';
import { withTransaction } from '@pwa/db';
import { checkPasswordPolicy, createTotpEnrolment, hashPassword, verifySealedTotpCode, type PasswordRule, setupTokenDigest } from '@pwa/web-auth';
import { acceptTotpStep, activateInvitedOperator, consumeSetupLink } from '../store/operator-store';
import { invitedOperatorOfSetupLink } from '../store/setup-link-store';
import { totpSecretBinding, type PeopleDependencies, type RequestOrigin } from './people-dependencies';

/**
 * Set-up of an invited operator from their one-time link, in two calls and no state between them:
 * `begin` checks the link (without using it) and makes a TOTP enrolment (the secret shown once,
 * and sealed to the operator for the second call to bring back); `complete` takes the password,
 * the sealed secret and a first code, and in one transaction uses the link (once, whatever runs
 * at the same time), activates the operator, stores the factor with the code's step already spent,
 * and writes the audit entry.
 */
export type BeginSetupOutcome =
  | { kind: 'enrol'; email: string; displayName: string; otpauthUri: string; secretBase32: string; sealedSecret: string }
  | { kind: 'refused'; reason: 'link-unusable' };

export async function beginOperatorSetup(deps: PeopleDependencies, token: string): Promise<BeginSetupOutcome> {
  const invited = await invitedOperatorOfSetupLink(deps.pool, setupTokenDigest(token));
  if (!invited) return { kind: 'refused', reason: 'link-unusable' };
  const enrolment = await createTotpEnrolment({ issuer: deps.totpIssuer, accountName: invited.email, boundTo: totpSecretBinding(invited.operatorId), sealer: deps.sealer });
  return { kind: 'enrol', email: invited.email, displayName: invited.displayName, ...enrolment };
}

export type CompleteSetupOutcome =
  | { kind: 'activated'; operatorId: string; email: string }
  | { kind: 'refused'; reason: 'link-unusable' | 'wrong-code' | 'enrolment-not-for-this-link' }
  | { kind: 'refused'; reason: 'password-policy'; failedRule: PasswordRule };

export async function completeOperatorSetup(
  deps: PeopleDependencies,
  request: { token: string; password: string; sealedSecret: string; code: string },
  origin: RequestOrigin,
): Promise<CompleteSetupOutcome> {
  const digest = setupTokenDigest(request.token);
  const invited = await invitedOperatorOfSetupLink(deps.pool, digest);
  if (!invited) return { kind: 'refused', reason: 'link-unusable' };
  const policy = checkPasswordPolicy(request.password, { identifiers: [invited.email, invited.displayName] });
  if (!policy.acceptable) return { kind: 'refused', reason: 'password-policy', failedRule: policy.failedRule };
  let verification;
  try {
    verification = await verifySealedTotpCode({ sealedSecret: request.sealedSecret, boundTo: totpSecretBinding(invited.operatorId), sealer: deps.sealer, code: request.code, lastAcceptedStep: null, now: deps.now ?? Date.now });
  } catch {
    return { kind: 'refused', reason: 'enrolment-not-for-this-link' };
  }
  if (!verification.accepted) return { kind: 'refused', reason: 'wrong-code' };
  const passwordHash = await hashPassword(request.password);
  return withTransaction(deps.pool, async (client) => {
    const operatorId = await consumeSetupLink(client, digest);
    if (operatorId !== invited.operatorId) return { kind: 'refused', reason: 'link-unusable' } as const;
    if (!(await activateInvitedOperator(client, { operatorId, passwordHash, sealedTotpSecret: request.sealedSecret }))) return { kind: 'refused', reason: 'link-unusable' } as const;
    await acceptTotpStep(client, operatorId, verification.step);
    await appendAuditEntryInTransaction(client, {
      actor: { kind: 'person', id: operatorId, displayName: invited.displayName },
      action: 'operator.setup.complete',
      target: { kind: 'operator', id: operatorId },
      after: { status: 'active', mfa: ['totp'] },
      outcome: 'done',
      address: origin.address,
      userAgent: origin.userAgent,
      requestId: origin.requestId,
    });
    return { kind: 'activated', operatorId, email: invited.email } as const;
  });
}
