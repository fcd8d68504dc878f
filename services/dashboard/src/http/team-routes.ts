import type { Express } from 'express';
import { z } from '@pwa/config';
import { ConsoleError } from '@pwa/errors';
import { AuditError, exportAuditEntries, searchAuditEntries } from '@pwa/audit';
import { originOf, parsedInput } from '@pwa/web-auth';
import { memberRoles } from '../domain/member-roles';
import { membersOfPartner, type Member } from '../store/member-store';
import { inviteMember } from '../use-cases/invitations';
import { changeRoleOfMember, removeMemberFromTeam } from '../use-cases/manage-team';
import { auditOf, personOf, type PeopleDependencies } from '../use-cases/people-dependencies';
import { memberOf, requireFreshCode, requireMember } from './member-session';

export const teamPaths = {
  members: '/api/v1/members',
  member: '/api/v1/members/:memberId',
  /** A removal carries the fresh code in its body: a POST, as DELETE takes no body here. */
  memberRemoval: '/api/v1/members/:memberId/removal',
  auditLog: '/api/v1/audit-log',
  auditLogExport: '/api/v1/audit-log/export',
} as const;

const uuid = z.uuid('must be a member id');
const code = z.string().regex(/^\d{6}$/, 'the six digits your authenticator app shows now').optional();
const role = z.enum(memberRoles, `one of ${memberRoles.join(', ')}`);

function memberView(member: Member) {
  return { memberId: member.memberId, email: member.email, displayName: member.displayName, role: member.role, status: member.status, createdAt: member.createdAt.toISOString() };
}

const teamRefusals = {
  'no-such-member': () => new ConsoleError('CON_4015'),
  'last-admin': () => new ConsoleError('CON_4016'),
} as const;

/** The team page's API: members and invitations (anyone signed in reads; admins change, with a fresh code), and the partner's audit log (admins). */
export function mountTeamRoutes(app: Express, deps: PeopleDependencies, consoleOrigin: string): void {
  app.get(teamPaths.members, ...requireMember(deps, consoleOrigin, 'read'), async (_req, res) => {
    const members = await membersOfPartner(deps.pool, memberOf(res).partnerId);
    res.json({ success: true, data: { members: members.map(memberView) } });
  });

  app.post(teamPaths.members, ...requireMember(deps, consoleOrigin, 'manage_team'), requireFreshCode(deps), async (req, res) => {
    const input = parsedInput(z.object({ email: z.string().min(3).max(254), displayName: z.string().trim().min(1, 'required').max(100), role, code }), req.body);
    const admin = memberOf(res);
    const invited = await inviteMember(deps, { partnerId: admin.partnerId, email: input.email, displayName: input.displayName, role: input.role, invitedBy: { kind: 'member', memberId: admin.memberId, displayName: admin.displayName } }, originOf(req, res));
    if (invited.kind === 'refused') throw invited.reason === 'email-in-use' ? new ConsoleError('CON_4014') : new ConsoleError('CON_2001', 'Missing or invalid fields: email (an e-mail address such as ada@example.com)');
    // The link is shown once, to the inviting admin (and sent by e-mail when a relay is set); only its digest is kept.
    const emailed = deps.mailer === undefined ? null : await deps.mailer.send({ to: invited.member.email, displayName: invited.member.displayName, role: invited.member.role, invitationLink: invited.invitationLink, expiresAt: invited.expiresAt });
    res.status(201).json({ success: true, data: { member: memberView(invited.member), invitationLink: invited.invitationLink, expiresAt: invited.expiresAt.toISOString(), emailed } });
  });

  app.patch(teamPaths.member, ...requireMember(deps, consoleOrigin, 'manage_team'), requireFreshCode(deps), async (req, res) => {
    const { memberId } = parsedInput(z.object({ memberId: uuid }), req.params, 'query parameters');
    const input = parsedInput(z.object({ role, code }), req.body);
    const outcome = await changeRoleOfMember(deps, memberOf(res), { memberId, role: input.role }, originOf(req, res));
    if (outcome.kind === 'refused') throw teamRefusals[outcome.reason]();
    res.json({ success: true, data: { member: memberView(outcome.member) } });
  });

  app.post(teamPaths.memberRemoval, ...requireMember(deps, consoleOrigin, 'manage_team'), requireFreshCode(deps), async (req, res) => {
    const { memberId } = parsedInput(z.object({ memberId: uuid }), req.params, 'query parameters');
    const outcome = await removeMemberFromTeam(deps, memberOf(res), memberId, originOf(req, res));
    if (outcome.kind === 'refused') throw teamRefusals[outcome.reason]();
    res.json({ success: true, data: { member: memberView(outcome.member) } });
  });

  app.get(teamPaths.auditLog, ...requireMember(deps, consoleOrigin, 'read_audit'), async (req, res) => {
    const query = parsedInput(z.object({ action: z.string().max(100).optional(), cursor: z.string().max(20).optional(), size: z.coerce.number().int().min(1).max(200).optional() }), req.query, 'query parameters');
    const page = await searchAuditEntries(
      deps.pool,
      { partnerId: memberOf(res).partnerId, ...(query.action === undefined ? {} : { actionPrefix: query.action }) },
      { ...(query.cursor === undefined ? {} : { cursor: query.cursor }), ...(query.size === undefined ? {} : { size: query.size }) },
    ).catch((error: unknown) => {
      throw error instanceof AuditError ? new ConsoleError('CON_2001', error.message) : error;
    });
    res.json({ success: true, data: page });
  });

  // The partner's whole log (or an action's, a period's) as one file, streamed; the export itself is audited, since it reveals entries.
  app.get(teamPaths.auditLogExport, ...requireMember(deps, consoleOrigin, 'read_audit'), async (req, res) => {
    const query = parsedInput(
      z.object({ format: z.enum(['csv', 'ndjson'], 'csv or ndjson').default('csv'), action: z.string().max(100).optional(), from: z.iso.datetime({ offset: true }).optional(), before: z.iso.datetime({ offset: true }).optional() }).strict(),
      req.query,
      'query parameters',
    );
    const member = memberOf(res);
    const filters = {
      partnerId: member.partnerId,
      ...(query.action === undefined ? {} : { actionPrefix: query.action }),
      ...(query.from === undefined ? {} : { occurredFrom: new Date(query.from) }),
      ...(query.before === undefined ? {} : { occurredBefore: new Date(query.before) }),
    };
    const file = await exportAuditEntries(deps.pool, filters, { format: query.format }).catch((error: unknown) => {
      throw error instanceof AuditError ? new ConsoleError('CON_2001', error.message) : error;
    });
    await auditOf(deps, originOf(req, res), { actor: personOf(member), action: 'audit_log.export', target: { kind: 'audit_log', id: member.partnerId }, partnerId: member.partnerId, after: { format: query.format, entryCount: file.entryCount }, outcome: 'done' });
    res.setHeader('Content-Type', file.contentType);
    res.setHeader('Content-Disposition', `attachment; filename="dashboard-audit-log.${file.fileExtension}"`);
    for await (const chunk of file.chunks) res.write(chunk);
    res.end();
  });
}
