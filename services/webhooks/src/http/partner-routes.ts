import type { Express, Request } from 'express';
import { isUuid } from '@pwa/contracts';
import { PkcError, successEnvelope } from '@pwa/errors';
import type { WebhooksDependencies } from '../use-cases/dependencies';
import { listPartnerDeliveries, redeliverFailedDeliveries, redeliverPartnerDelivery } from '../use-cases/partner-deliveries';
import { getPartnerEvent, listPartnerEvents } from '../use-cases/partner-events';

/**
 * The partner's webhook endpoints (additions to the spec), reached only through the gateway, which
 * has checked the token and the partner's status and names the partner in x-partner-id.
 */
export function mountPartnerRoutes(app: Express, dependencies: WebhooksDependencies): void {
  app.get('/partner/v1/webhooks/deliveries', async (req, res) => {
    res.status(200).json(successEnvelope(await listPartnerDeliveries(dependencies, partnerIdOf(req), req.query)));
  });

  app.post('/partner/v1/webhooks/deliveries/:deliveryId/redeliver', async (req, res) => {
    res.status(202).json(successEnvelope(await redeliverPartnerDelivery(dependencies, partnerIdOf(req), req.params.deliveryId)));
  });

  app.post('/partner/v1/webhooks/redeliver', async (req, res) => {
    res.status(202).json(successEnvelope(await redeliverFailedDeliveries(dependencies, partnerIdOf(req), req.body)));
  });

  // The event log (decision 0051): every event for the partner's webhook, whatever its delivery became.
  app.get('/partner/v1/events', async (req, res) => {
    res.status(200).json(successEnvelope(await listPartnerEvents(dependencies, partnerIdOf(req), req.query)));
  });

  app.get('/partner/v1/events/:eventId', async (req, res) => {
    res.status(200).json(successEnvelope(await getPartnerEvent(dependencies, partnerIdOf(req), req.params.eventId)));
  });
}

/** Without the gateway's word on who is calling there is no partner to act for. */
function partnerIdOf(req: Request): string {
  const partnerId = req.header('x-partner-id');
  if (!isUuid(partnerId)) throw new PkcError('PKC_6005', 'Requests must come through the gateway');
  return partnerId.toLowerCase();
}
