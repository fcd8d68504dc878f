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
import { findOperatorRedelivery, insertOperatorRedelivery, listBacklog, lockRedeliveryRequest, redeliverAnyPartner } from '../store/delivery-admin-store';
import type { WebhooksDependencies } from '../use-cases/dependencies';

/**
 * The webhooks service's admin routes for the back-office (issue 27), on the internal network only
 * (the gateway never routes here): the delivery backlog and dead letters across partners, and a
 * redelivery by a person, who must be named (400 PKC_2008 without) and is recorded in
 * operator_redeliveries, once per request id. Contract: libs/contracts
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
    const { requestId, deliveryId, actor } = parsed.data;
    const outcome = await withTransaction(dependencies.pool, async (client) => {
      await lockRedeliveryRequest(client, requestId);
      const earlier = await findOperatorRedelivery(client, requestId);
      if (earlier) {
        if (earlier.deliveryId !== deliveryId) throw new PkcError('PKC_6001', `Request id ${requestId} was used for another delivery; nothing was changed`);
        return { ...earlier, replayed: true };
      }
      const changed = await redeliverAnyPartner(client, deliveryId);
      if (!changed) throw new PkcError('PKC_6002', 'No such delivery');
      const record = { requestId, deliveryId, ...changed, operatorId: actor.operatorId, operatorName: actor.displayName };
      await insertOperatorRedelivery(client, record);
      return { ...record, replayed: false };
    });
    if (!outcome.replayed && outcome.after === 'pending') dependencies.wakeWorker();
    res.json({
      requestId,
      replayed: outcome.replayed,
      deliveryId,
      partnerId: outcome.partnerId,
      before: { deliveryState: outcome.before },
      after: { deliveryState: outcome.after, nextAttemptAt: outcome.nextAttemptAt?.toISOString() ?? null },
    } satisfies z.input<typeof webhooksAdminRedeliveryAnswerSchema>);
  });
}
