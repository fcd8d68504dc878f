import type { Express } from 'express';
import { dashboardAdminPaths, dashboardFirstAdminInvitationRequestSchema, type DashboardFirstAdminInvitationAnswer } from '@pwa/contracts';
import { PkcError, invalidParametersErrorOf } from '@pwa/errors';
import { firstAdminRefusalMessages, inviteFirstAdminOfPartner, type FirstAdminInvitationPorts } from '../use-cases/invite-first-admin';

/**
 * The dashboard's internal admin API (its internal port only, never the public one): the
 * back-office invites a newly onboarded partner's first admin for the operator who onboarded it
 * (libs/contracts dashboard-admin.ts). The answer carries the one-time link once; nothing logs it.
 */
export function mountInternalRoutes(app: Express, ports: FirstAdminInvitationPorts): void {
  app.post(dashboardAdminPaths.firstAdminInvitations, async (req, res) => {
    const parsed = dashboardFirstAdminInvitationRequestSchema.safeParse(req.body);
    if (!parsed.success) throw invalidParametersErrorOf(parsed.error.issues, 'body');
    const request = parsed.data;
    const outcome = await inviteFirstAdminOfPartner(ports, {
      partnerId: request.partnerId.toLowerCase(),
      email: request.email,
      displayName: request.displayName,
      operatorName: `${request.actor.displayName} (back-office operator ${request.actor.operatorId})`,
    });
    if (outcome.kind === 'refused') {
      const message = firstAdminRefusalMessages[outcome.reason];
      if (outcome.reason === 'not-an-email') throw new PkcError('PKC_2008', `email: ${message}`);
      if (outcome.reason === 'unknown-partner') throw new PkcError('PKC_6002', message);
      throw new PkcError('PKC_6004', message);
    }
    res.json({
      outcome: outcome.kind,
      memberId: outcome.memberId,
      partnerId: request.partnerId.toLowerCase(),
      email: outcome.email,
      invitationLink: outcome.invitationLink,
      expiresAt: outcome.expiresAt.toISOString(),
      emailed: outcome.emailed,
    } satisfies DashboardFirstAdminInvitationAnswer);
  });
}
