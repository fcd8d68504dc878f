import type { Express } from 'express';
import { assertedPartnerOf, partnerChangeLogFields } from '@pwa/contracts';
import { successEnvelope } from '@pwa/errors';
import type { WebhooksDependencies } from '../use-cases/dependencies';
import { listPartnerDeliveries, redeliverFailedDeliveries, redeliverPartnerDelivery, sendTestWebhook } from '../use-cases/partner-deliveries';
import { getPartnerEvent, listPartnerEvents } from '../use-cases/partner-events';

/**
 * The partner's webhook endpoints (additions to the spec), reached only through the gateway, which
 * has checked the token and the partner's status and names the partner in x-partner-id.
 */
export function mountPartnerRoutes(app: Express, dependencies: WebhooksDependencies): void {
  app.get('/partner/v1/webhooks/deliveries', async (req, res) => {
    res.status(200).json(successEnvelope(await listPartnerDeliveries(dependencies, assertedPartnerOf(req.headers).partnerId, req.query)));
  });

  app.post('/partner/v1/webhooks/deliveries/:deliveryId/redeliver', async (req, res) => {
    const partner = assertedPartnerOf(req.headers);
    const answer = await redeliverPartnerDelivery(dependencies, partner.partnerId, req.params.deliveryId);
    dependencies.logger.info({ ...partnerChangeLogFields(partner), deliveryId: req.params.deliveryId }, 'webhook delivery sent again at the partner’s request');
    res.status(202).json(successEnvelope(answer));
  });

  app.post('/partner/v1/webhooks/redeliver', async (req, res) => {
    const partner = assertedPartnerOf(req.headers);
    const answer = await redeliverFailedDeliveries(dependencies, partner.partnerId, req.body);
    dependencies.logger.info({ ...partnerChangeLogFields(partner), redelivered: answer.redelivered }, 'failed webhook deliveries sent again at the partner’s request');
    res.status(202).json(successEnvelope(answer));
  });

  app.post('/partner/v1/webhooks/test', async (req, res) => {
    const partner = assertedPartnerOf(req.headers);
    const answer = await sendTestWebhook(dependencies, partner.partnerId);
    dependencies.logger.info({ ...partnerChangeLogFields(partner), deliveryId: answer.deliveryId }, 'test webhook queued at the partner’s request');
    res.status(202).json(successEnvelope(answer));
  });

  // The event log (decision 0051): every event for the partner's webhook, whatever its delivery became.
  app.get('/partner/v1/events', async (req, res) => {
    res.status(200).json(successEnvelope(await listPartnerEvents(dependencies, assertedPartnerOf(req.headers).partnerId, req.query)));
  });

  app.get('/partner/v1/events/:eventId', async (req, res) => {
    res.status(200).json(successEnvelope(await getPartnerEvent(dependencies, assertedPartnerOf(req.headers).partnerId, req.params.eventId)));
  });
}
