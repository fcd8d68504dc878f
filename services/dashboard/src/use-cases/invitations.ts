import { randomUUID } from 'node:crypto';
import { appendAuditEntryInTransaction } from '@pwa/audit';
import { withTransaction, type Queryable } from '@pwa/db';
import { checkPasswordPolicy, createTotpEnrolment, hashPassword, newSetupToken, normalisedEmail, setupLinkLifetimeSeconds, setupLinkUrl, setupTokenDigest, verifySealedTotpCode, type PasswordRule } from '@pwa/web-auth';
import type { MemberRole } from '../domain/member-roles';
import { acceptTotpStep, activateInvitedMember, consumeInvitation, insertInvitedMember, invitedMemberOf, replaceInvitation, type Inviter, type Member } from '../store/member-store';
import { totpSecretBinding, type PeopleDependencies, type RequestOrigin } from './people-dependencies';

/** The page an invitation link opens; the token travels in the fragment, never to a server log. */
export const invitationPagePath = '/invitation';

export type InviteOutcome =
  | { kind: 'invited'; member: Member; invitationLink: string; expiresAt: Date }
  | { kind: 'refused'; reason: 'email-invalid' | 'email-in-use' };

/**
 * Invites a person to a partner's team with a role: an invited member row and a one-time
 * invitation link (shown once to whoever invited, never stored but as its digest), in one
 * transaction with the audit entry. The address must not be in use by any other team's member.
 */
export async function inviteMember(
  deps: Pick<PeopleDependencies, 'pool' | 'publicUrl'>,
  invitation: { partnerId: string; email: string; displayName: string; role: MemberRole; invitedBy: Inviter },
  origin: RequestOrigin,
): Promise<InviteOutcome> {
  const email = normalisedEmail(invitation.email);
  if (email === undefined) return { kind: 'refused', reason: 'email-invalid' };
  const displayName = invitation.displayName.trim();
  return withTransaction(deps.pool, async (client) => {
    const member = await insertInvitedMember(client, { memberId: randomUUID(), partnerId: invitation.partnerId, email, displayName, role: invitation.role, invitedBy: invitation.invitedBy });
    if (!member) return { kind: 'refused', reason: 'email-in-use' } as const;
    const { invitationLink, expiresAt } = await issueInvitation(client, deps.publicUrl, member.memberId);
    await appendAuditEntryInTransaction(client, {
      actor: invitation.invitedBy.kind === 'member' ? { kind: 'person', id: invitation.invitedBy.memberId, displayName: invitation.invitedBy.displayName } : { kind: 'system', id: 'operator', displayName: invitation.invitedBy.name },
      action: 'member.invite',
      target: { kind: 'member', id: member.memberId },
      partnerId: member.partnerId,
      after: { email, displayName, role: member.role, status: 'invited' },
      outcome: 'done',
      address: origin.address,
      userAgent: origin.userAgent,
      requestId: origin.requestId,
    });
    return { kind: 'invited', member, invitationLink, expiresAt } as const;
  });
}

async function issueInvitation(db: Queryable, publicUrl: string, memberId: string): Promise<{ invitationLink: string; expiresAt: Date }> {
  const token = newSetupToken();
  const expiresAt = await replaceInvitation(db, { memberId, tokenSha256: token.sha256, lifetimeSeconds: setupLinkLifetimeSeconds });
  return { invitationLink: setupLinkUrl(publicUrl, token.token, invitationPagePath), expiresAt };
}

export type BeginAcceptanceOutcome =
  | { kind: 'enrol'; email: string; displayName: string; role: MemberRole; otpauthUri: string; secretBase32: string; sealedSecret: string }
  | { kind: 'refused'; reason: 'link-unusable' };

/** Checks an invitation (without using it) and makes a TOTP enrolment: the secret shown once, sealed to the member for the second call. */
export async function beginAcceptance(deps: PeopleDependencies, token: string): Promise<BeginAcceptanceOutcome> {
  const invited = await invitedMemberOf(deps.pool, setupTokenDigest(token));
  if (!invited) return { kind: 'refused', reason: 'link-unusable' };
  const enrolment = await createTotpEnrolment({ issuer: deps.totpIssuer, accountName: invited.email, boundTo: totpSecretBinding(invited.memberId), sealer: deps.sealer });
  return { kind: 'enrol', email: invited.email, displayName: invited.displayName, role: invited.role, ...enrolment };
}

export type CompleteAcceptanceOutcome =
  | { kind: 'activated'; memberId: string; email: string }
  | { kind: 'refused'; reason: 'link-unusable' | 'wrong-code' | 'enrolment-not-for-this-link' }
  | { kind: 'refused'; reason: 'password-policy'; failedRule: PasswordRule };

/**
 * Takes the password, the sealed secret and a first code, and in one transaction uses the
 * invitation (once, whatever runs at the same time), activates the member, stores the factor with
 * the code's step spent, and writes the audit entry.
 */
export async function completeAcceptance(
  deps: PeopleDependencies,
  request: { token: string; password: string; sealedSecret: string; code: string },
  origin: RequestOrigin,
): Promise<CompleteAcceptanceOutcome> {
  const digest = setupTokenDigest(request.token);
  const invited = await invitedMemberOf(deps.pool, digest);
  if (!invited) return { kind: 'refused', reason: 'link-unusable' };
  const policy = checkPasswordPolicy(request.password, { identifiers: [invited.email, invited.displayName] });
  if (!policy.acceptable) return { kind: 'refused', reason: 'password-policy', failedRule: policy.failedRule };
  let verification;
  try {
    verification = await verifySealedTotpCode({ sealedSecret: request.sealedSecret, boundTo: totpSecretBinding(invited.memberId), sealer: deps.sealer, code: request.code, lastAcceptedStep: null, now: deps.now ?? Date.now });
  } catch {
    return { kind: 'refused', reason: 'enrolment-not-for-this-link' };
  }
  if (!verification.accepted) return { kind: 'refused', reason: 'wrong-code' };
  const passwordHash = await hashPassword(request.password);
  return withTransaction(deps.pool, async (client) => {
    const memberId = await consumeInvitation(client, digest);
    if (memberId !== invited.memberId) return { kind: 'refused', reason: 'link-unusable' } as const;
    if (!(await activateInvitedMember(client, { memberId, passwordHash, sealedTotpSecret: request.sealedSecret }))) return { kind: 'refused', reason: 'link-unusable' } as const;
    await acceptTotpStep(client, memberId, verification.step);
    await appendAuditEntryInTransaction(client, {
      actor: { kind: 'person', id: memberId, displayName: invited.displayName },
      action: 'member.invitation.accept',
      target: { kind: 'member', id: memberId },
      partnerId: invited.partnerId,
      after: { status: 'active', role: invited.role, mfa: ['totp'] },
      outcome: 'done',
      address: origin.address,
      userAgent: origin.userAgent,
      requestId: origin.requestId,
    });
    return { kind: 'activated', memberId, email: invited.email } as const;
  });
}
