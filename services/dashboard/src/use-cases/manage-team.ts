import { revokeAllSessionsOf } from '@pwa/web-auth';
import { withTransaction } from '@pwa/db';
import { appendAuditEntryInTransaction } from '@pwa/audit';
import type { MemberRole } from '../domain/member-roles';
import { activeAdminCount, changeMemberRole, findMemberOfPartner, removeMember, type Member } from '../store/member-store';
import { personOf, type PeopleDependencies, type RequestOrigin } from './people-dependencies';

export type TeamChangeOutcome = { kind: 'done'; member: Member } | { kind: 'refused'; reason: 'no-such-member' | 'last-admin' };

/**
 * An admin changes a member's role, or removes a member, within the admin's own partner only (a
 * member id of another partner finds nothing). The team keeps at least one active admin. The
 * member's sessions end at once, so the new role (or none) counts from their next request.
 */
export async function changeRoleOfMember(deps: PeopleDependencies, admin: Member, change: { memberId: string; role: MemberRole }, origin: RequestOrigin): Promise<TeamChangeOutcome> {
  const outcome = await withTransaction(deps.pool, async (client) => {
    const target = await findMemberOfPartner(client, admin.partnerId, change.memberId);
    if (!target || target.status === 'removed') return { kind: 'refused', reason: 'no-such-member' } as const;
    // Locks the admins of the partner in the order the count reads them: two demotions at once cannot leave none.
    await client.query(`SELECT id FROM members WHERE partner_id = $1 AND role = 'admin' AND status = 'active' ORDER BY id FOR UPDATE`, [admin.partnerId]);
    if (target.role === 'admin' && change.role !== 'admin' && target.status === 'active' && (await activeAdminCount(client, admin.partnerId)) <= 1) return { kind: 'refused', reason: 'last-admin' } as const;
    const before = await changeMemberRole(client, admin.partnerId, change.memberId, change.role);
    if (before === undefined) return { kind: 'refused', reason: 'no-such-member' } as const;
    await appendAuditEntryInTransaction(client, {
      actor: personOf(admin),
      action: 'member.role.change',
      target: { kind: 'member', id: target.memberId },
      partnerId: admin.partnerId,
      before: { role: before },
      after: { role: change.role },
      outcome: 'done',
      ...origin,
    });
    return { kind: 'done', member: { ...target, role: change.role } } as const;
  });
  if (outcome.kind === 'done') await revokeAllSessionsOf(deps.redis, deps.sessions, outcome.member.memberId);
  return outcome;
}

export async function removeMemberFromTeam(deps: PeopleDependencies, admin: Member, memberId: string, origin: RequestOrigin): Promise<TeamChangeOutcome> {
  const outcome = await withTransaction(deps.pool, async (client) => {
    const target = await findMemberOfPartner(client, admin.partnerId, memberId);
    if (!target || target.status === 'removed') return { kind: 'refused', reason: 'no-such-member' } as const;
    await client.query(`SELECT id FROM members WHERE partner_id = $1 AND role = 'admin' AND status = 'active' ORDER BY id FOR UPDATE`, [admin.partnerId]);
    if (target.role === 'admin' && target.status === 'active' && (await activeAdminCount(client, admin.partnerId)) <= 1) return { kind: 'refused', reason: 'last-admin' } as const;
    if (!(await removeMember(client, admin.partnerId, memberId))) return { kind: 'refused', reason: 'no-such-member' } as const;
    await appendAuditEntryInTransaction(client, {
      actor: personOf(admin),
      action: 'member.remove',
      target: { kind: 'member', id: target.memberId },
      partnerId: admin.partnerId,
      before: { status: target.status, role: target.role },
      after: { status: 'removed' },
      outcome: 'done',
      ...origin,
    });
    return { kind: 'done', member: { ...target, status: 'removed' } } as const;
  });
  if (outcome.kind === 'done') await revokeAllSessionsOf(deps.redis, deps.sessions, outcome.member.memberId);
  return outcome;
}
