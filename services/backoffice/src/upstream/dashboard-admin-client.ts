import { dashboardAdminPaths, dashboardFirstAdminInvitationAnswerSchema } from '@pwa/contracts';
import type { PkcCode } from '@pwa/errors';
import { createUpstreamClient, type UpstreamSettings } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import type { FirstAdminInvitationsPort } from '../use-cases/partner-admin-actions';
import { ownerAnswerOf } from './owner-answers';

/** The dashboard's refusals for good: an address that is not one, an unknown partner, an admin who can sign in already or an address in use. */
const invitationRefusals: ReadonlySet<PkcCode> = new Set<PkcCode>(['PKC_2008', 'PKC_6002', 'PKC_6004']);

/**
 * The partner dashboard's internal admin route (libs/contracts dashboard-admin, on the dashboard's
 * internal port): a partner's first admin invited by the operator. The answer's one-time link goes
 * to the person who asked, never to a log. Without DASHBOARD_INTERNAL_URL there is no dashboard to ask.
 */
export function createDashboardAdminClient(settings: UpstreamSettings, logger: Logger): FirstAdminInvitationsPort & { shutdown(): void } {
  const dashboard = createUpstreamClient({ name: 'dashboard', ...settings, logger });
  const call = (requestId: string | null) => ({ timeoutMs: settings.timeoutMs, ...(requestId === null ? {} : { requestId }) });
  return {
    inviteFirstAdmin: (body, requestId) => ownerAnswerOf('The dashboard', dashboard.post(dashboardAdminPaths.firstAdminInvitations, body, call(requestId)), dashboardFirstAdminInvitationAnswerSchema, invitationRefusals),
    shutdown: () => dashboard.shutdown(),
  };
}
