import { randomUUID } from 'node:crypto';
import { appendAuditEntryInTransaction } from '@pwa/audit';
import { withTransaction, type Pool } from '@pwa/db';
import { newSetupToken, normalisedEmail, setupLinkLifetimeSeconds, setupLinkUrl } from '@pwa/web-auth';
import { activeAdminCount, insertInvitedMember, replaceInvitation } from '../store/member-store';
import type { InvitationMailer } from '../upstream/invitation-mailer';
import { invitationPagePath } from './invitations';

export type FirstAdminOutcome =
  | { kind: 'invited' | 'renewed'; memberId: string; email: string; invitationLink: string; expiresAt: Date }
  | { kind: 'refused'; reason: 'not-an-email' | 'an-admin-exists' | 'email-in-use' };

/**
 * A partner's first admin, invited by the operator (the onboarding's set-up step): an invited admin
 * member and a one-time invitation link. Run again before the link is used, it renews the link of
 * the same invited address; refused once an admin of the partner can sign in (admins invite their
 * team in the dashboard) and for an address in use elsewhere.
 */
export async function inviteFirstAdmin(pool: Pool, request: { partnerId: string; email: string; displayName: string; publicUrl: string; operatorName: string }): Promise<FirstAdminOutcome> {
  const email = normalisedEmail(request.email);
  if (email === undefined) return { kind: 'refused', reason: 'not-an-email' };
  return withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`dashboard-first-admin:${request.partnerId}`]);
    if ((await activeAdminCount(client, request.partnerId)) > 0) return { kind: 'refused', reason: 'an-admin-exists' } as const;
    const existing = await client.query<{ id: string; partner_id: string; role: string; status: string }>(`SELECT id, partner_id, role, status FROM members WHERE email = $1 AND status <> 'removed'`, [email]);
    const found = existing.rows[0];
    let memberId: string;
    let kind: 'invited' | 'renewed';
    if (found) {
      if (found.partner_id !== request.partnerId || found.role !== 'admin' || found.status !== 'invited') return { kind: 'refused', reason: 'email-in-use' } as const;
      memberId = found.id;
      kind = 'renewed';
    } else {
      const member = await insertInvitedMember(client, { memberId: randomUUID(), partnerId: request.partnerId, email, displayName: request.displayName, role: 'admin', invitedBy: { kind: 'operator', name: request.operatorName } });
      if (!member) return { kind: 'refused', reason: 'email-in-use' } as const;
      memberId = member.memberId;
      kind = 'invited';
    }
    const token = newSetupToken();
    const expiresAt = await replaceInvitation(client, { memberId, tokenSha256: token.sha256, lifetimeSeconds: setupLinkLifetimeSeconds });
    await appendAuditEntryInTransaction(client, {
      actor: { kind: 'system', id: 'operator', displayName: request.operatorName },
      action: kind === 'invited' ? 'member.invite' : 'member.invitation.renew',
      target: { kind: 'member', id: memberId },
      partnerId: request.partnerId,
      after: { email, role: 'admin', status: 'invited' },
      outcome: 'done',
    });
    return { kind, memberId, email, invitationLink: setupLinkUrl(request.publicUrl, token.token, invitationPagePath), expiresAt } as const;
  });
}

export interface FirstAdminInvitationPorts {
  pool: Pool;
  publicUrl: string;
  /** Whether auth knows the partner (onboarded it): an invitation for an unknown partner is refused. */
  partnerExists: (partnerId: string) => Promise<boolean>;
  /** Mails the invitation too when the dashboard has an SMTP relay (the link is answered all the same). */
  mailer?: InvitationMailer;
}

export type FirstAdminInvitation =
  | (Extract<FirstAdminOutcome, { kind: 'invited' | 'renewed' }> & { emailed: boolean | null })
  | { kind: 'refused'; reason: Extract<FirstAdminOutcome, { kind: 'refused' }>['reason'] | 'unknown-partner' };

/** Why a first admin's invitation was refused, in the operator's words (the CLI and the back-office show them). */
export const firstAdminRefusalMessages: Readonly<Record<Extract<FirstAdminInvitation, { kind: 'refused' }>['reason'], string>> = {
  'not-an-email': 'The address must be an e-mail address, e.g. finance.lead@partner.example',
  'an-admin-exists': 'An admin of this partner can sign in already: admins invite their team in the dashboard',
  'email-in-use': 'This address belongs to another member (of this or another partner): use another address',
  'unknown-partner': 'No partner with this id: onboard the partner first',
};

/**
 * The operator's invitation of a partner's first admin, from the set-up CLI or the back-office's
 * onboarding (the dashboard's internal port): only for a partner auth knows, then mailed when a
 * relay is set. The link is in the outcome once; it is never logged.
 */
export async function inviteFirstAdminOfPartner(ports: FirstAdminInvitationPorts, request: { partnerId: string; email: string; displayName: string; operatorName: string }): Promise<FirstAdminInvitation> {
  if (!(await ports.partnerExists(request.partnerId))) return { kind: 'refused', reason: 'unknown-partner' };
  const outcome = await inviteFirstAdmin(ports.pool, { ...request, publicUrl: ports.publicUrl });
  if (outcome.kind === 'refused') return outcome;
  const emailed = ports.mailer === undefined ? null : await ports.mailer.send({ to: outcome.email, displayName: request.displayName, role: 'admin', invitationLink: outcome.invitationLink, expiresAt: outcome.expiresAt });
  return { ...outcome, emailed };
}
