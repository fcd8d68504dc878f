import { z } from 'zod';
import { adminActorSchema } from './wallet-admin';
import { uuidField } from './wire-fields';

/**
 * The dashboard's internal admin API for the back-office (issue 28): a partner's first admin
 * invited by the operator who onboarded the partner. Served on the dashboard's internal port only
 * (DASHBOARD_INTERNAL_PORT), never on its public one; the one-time link is in the answer once.
 */
export const dashboardAdminPaths = {
  firstAdminInvitations: '/internal/admin/first-admin-invitations',
} as const;

/**
 * POST firstAdminInvitations: invites the partner's first admin (an invited admin member and a
 * one-time link, 24 h). Sent again before the link is used, it renews the link (the earlier one
 * stops working). 400 PKC_2008 for an address that is not one; 404 PKC_6002 for a partner auth does
 * not know; 409 PKC_6004 once an admin of the partner can sign in, or for an address another member holds.
 */
export const dashboardFirstAdminInvitationRequestSchema = z.strictObject({
  partnerId: uuidField,
  email: z.string().trim().min(3).max(254),
  displayName: z.string().trim().min(1).max(100),
  actor: adminActorSchema,
});
export type DashboardFirstAdminInvitationRequest = z.output<typeof dashboardFirstAdminInvitationRequestSchema>;

/** 200: the invitation; `emailed` is null without an SMTP relay, else whether the relay took the mail. */
export const dashboardFirstAdminInvitationAnswerSchema = z.object({
  outcome: z.enum(['invited', 'renewed']),
  memberId: uuidField,
  partnerId: uuidField,
  email: z.string(),
  invitationLink: z.string(),
  expiresAt: z.string(),
  emailed: z.boolean().nullable(),
});
export type DashboardFirstAdminInvitationAnswer = z.output<typeof dashboardFirstAdminInvitationAnswerSchema>;
