import type { Express } from 'express';
import { z } from '@pwa/config';
import { ConsoleError } from '@pwa/errors';
import { originOf, parsedInput } from '@pwa/web-auth';
import type { PartnerApi } from '../upstream/partner-api';
import { auditOf, personOf, type PeopleDependencies } from '../use-cases/people-dependencies';
import { memberOf, requireMember } from './member-session';
import { isNotTheirs, partnerCallerOf, passOn } from './partner-calls';

export const partnerActionPaths = {
  redeliver: '/api/v1/deliveries/:deliveryId/redelivery',
  testWebhook: '/api/v1/webhook-settings/test',
  sandboxCollection: '/api/v1/sandbox/collections/:referenceId/:decision',
} as const;

/**
 * The developers' actions on the partner's own records: send a webhook delivery again, ask for a
 * test webhook (webhook.test to the registered URL, signed and retried like any other), and in the
 * sandbox approve or decline a collection as its user would (the API's sandbox routes; production
 * has none). Each is in the partner's audit log.
 */
export function mountPartnerActionRoutes(app: Express, deps: PeopleDependencies, consoleOrigin: string, api: PartnerApi, environment: string): void {
  const callForMember = partnerCallerOf(api);

  app.post(partnerActionPaths.redeliver, ...requireMember(deps, consoleOrigin, 'redeliver'), async (req, res) => {
    const { deliveryId } = parsedInput(z.object({ deliveryId: z.uuid('a deliveryId (a UUID)') }), req.params, 'query parameters');
    const member = memberOf(res);
    const answer = await callForMember(res, { owner: 'webhooks', method: 'POST', path: `/partner/v1/webhooks/deliveries/${deliveryId}/redeliver`, body: {} });
    if (isNotTheirs(answer)) throw new ConsoleError('CON_4017', `No delivery ${deliveryId} among your partner’s records: check the id`);
    await auditOf(deps, originOf(req, res), { actor: personOf(member), action: 'webhook_delivery.redeliver', target: { kind: 'webhook_delivery', id: deliveryId }, partnerId: member.partnerId, ...outcomeOf(answer.status) });
    passOn(res, answer);
  });

  app.post(partnerActionPaths.testWebhook, ...requireMember(deps, consoleOrigin, 'send_test_webhook'), async (req, res) => {
    const member = memberOf(res);
    const answer = await callForMember(res, { owner: 'webhooks', method: 'POST', path: '/partner/v1/webhooks/test', body: {} });
    const referenceId = (answer.body as { data?: { referenceId?: unknown } } | undefined)?.data?.referenceId;
    await auditOf(deps, originOf(req, res), { actor: personOf(member), action: 'webhook.test.send', target: { kind: 'webhook', id: typeof referenceId === 'string' ? referenceId : member.partnerId }, partnerId: member.partnerId, ...outcomeOf(answer.status) });
    passOn(res, answer);
  });

  app.post(partnerActionPaths.sandboxCollection, ...requireMember(deps, consoleOrigin, 'simulate'), async (req, res) => {
    const { referenceId, decision } = parsedInput(
      z.object({ referenceId: z.string().regex(/^PKC-[0-9A-Za-z-]{1,80}$/, 'a collection referenceId (PKC-…)'), decision: z.enum(['approve', 'decline'], 'approve or decline') }),
      req.params,
      'query parameters',
    );
    if (environment !== 'sandbox') throw new ConsoleError('CON_4019', 'Only the sandbox approves or declines a collection for its user: in production the user does');
    const member = memberOf(res);
    const answer = await callForMember(res, { owner: 'collections', method: 'POST', permission: 'collection', path: `/partner/v1/sandbox/collection/${encodeURIComponent(referenceId)}/${decision}`, body: {} });
    if (isNotTheirs(answer)) throw new ConsoleError('CON_4017', `No collection ${referenceId} among your partner’s records: check the id`);
    await auditOf(deps, originOf(req, res), { actor: personOf(member), action: `sandbox.collection.${decision}`, target: { kind: 'collection', id: referenceId }, partnerId: member.partnerId, ...outcomeOf(answer.status) });
    passOn(res, answer);
  });
}

function outcomeOf(status: number): { outcome: 'done' } | { outcome: 'refused'; reason: string } {
  return status >= 200 && status < 300 ? { outcome: 'done' } : { outcome: 'refused', reason: `the API answered ${status}` };
}
