import type { Express } from 'express';
import type { z } from '@pwa/config';
import {
  webhooksAdminDeliveryQuerySchema,
  webhooksAdminPaths,
  webhooksAdminRedeliveryRequestSchema,
  type webhooksAdminDeliveryPageSchema,
  type webhooksAdminRedeliveryAnswerSchema,
} from '@pwa/contracts';
import { withTransaction } from '@pwa/db';
import { PkcError, echoInput } from '@pwa/errors';
import { listBacklog, redeliverAnyPartner } from '../store/delivery-admin-store';
import type { WebhooksDependencies } from '../use-cases/dependencies';

/**
 * The webhooks service's admin routes for the back-office (issue 27), on the internal network only
 * (the gateway never routes here): the delivery backlog and dead letters across partners, and a
 * redelivery by a person, who must be named (400 PKC_2008 without). Contract: libs/contracts
 * internal/webhooks-admin. Never a body, a signature or a secret.
 */
export function mountAdminRoutes(app: Express, dependencies: WebhooksDependencies): void {
  app.get(webhooksAdminPaths.deliveries, async (req, res) => {
    const parsed = webhooksAdminDeliveryQuerySchema.safeParse(req.query);
    if (!parsed.success) throw new PkcError('PKC_2008', `Invalid query parameters: ${[...new Set(parsed.error.issues.map((issue) => echoInput(issue.path.join('.'))))].join(', ')}`);
    const { status, partnerId, afterCreatedAt, afterId, pageSize } = parsed.data;
    if ((afterCreatedAt === undefined) !== (afterId === undefined)) throw new PkcError('PKC_2008', 'afterCreatedAt and afterId are given together or not at all');
    const after = afterCreatedAt !== undefined && afterId !== undefined ? { createdAt: afterCreatedAt, id: afterId } : undefined;
    res.json((await listBacklog(dependencies.pool, { status, partnerId, after, pageSize })) satisfies z.input<typeof webhooksAdminDeliveryPageSchema>);
  });

  app.post(webhooksAdminPaths.redeliveries, async (req, res) => {
    const parsed = webhooksAdminRedeliveryRequestSchema.safeParse(req.body);
    if (!parsed.success) {
      const problems = parsed.error.issues.slice(0, 10).map((issue) => `${echoInput(issue.path.join('.') || 'body')}: ${echoInput(issue.message)}`);
      throw new PkcError('PKC_2008', `Malformed request: ${problems.join('; ')}`);
    }
    const { deliveryId, actor } = parsed.data;
    const outcome = await withTransaction(dependencies.pool, (client) => redeliverAnyPartner(client, deliveryId));
    if (!outcome) throw new PkcError('PKC_6002', 'No such delivery');
    if (outcome.after === 'pending') dependencies.wakeWorker();
    dependencies.logger.info({ deliveryId, partnerId: outcome.partnerId, operatorId: actor.operatorId, before: outcome.before, after: outcome.after }, 'delivery redelivered by an operator');
    res.json({
      deliveryId,
      partnerId: outcome.partnerId,
      before: { deliveryState: outcome.before },
      after: { deliveryState: outcome.after, nextAttemptAt: outcome.nextAttemptAt?.toISOString() ?? null },
    } satisfies z.input<typeof webhooksAdminRedeliveryAnswerSchema>);
  });
}
