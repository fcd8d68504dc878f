import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import { isUuid, webhookBacklogStatuses } from '@pwa/contracts';
import { z } from '@pwa/config';
import { ConsoleError } from '@pwa/errors';
import { requestIdOf } from '@pwa/http';
import { originOf, parsedInput } from '@pwa/web-auth';
import { mayPerform } from '../domain/operator-roles';
import { decodePageCursor, encodePageCursor } from '../domain/page-cursor';
import { findOperatorById } from '../store/operator-store';
import { redeliverByPerson, requestIdOfKey, type WebhookDeliveriesPort } from '../use-cases/partner-admin-actions';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import { idempotencyKeyOf, refusalOf } from './partner-action-routes';
import { requireSession, sessionOf } from './console-session';

export const webhookDeliveryPaths = {
  deliveries: '/api/v1/webhook-deliveries',
  redeliver: '/api/v1/webhook-deliveries/:deliveryId/redeliver',
} as const;

const listQuery = z
  .object({
    status: z.enum(webhookBacklogStatuses).optional(),
    partnerId: z.string().uuid().optional(),
    cursor: z.string().max(200).optional(),
    pageSize: z.coerce.number().int().min(1).max(100).default(25),
  })
  .strict();

/**
 * The webhook delivery backlog and dead letters in the console (issue 27): every role reads them
 * (pending, retrying, dead; one partner or all; newest first in keyset pages; attempts, last status
 * and next attempt, never a body or a signature), makers and admins send one again (audited; an
 * optional Idempotency-Key makes a double click one redelivery).
 * From the webhooks service on each call; it away is 503 PKC_7003, never an empty list.
 */
export function mountWebhookDeliveryRoutes(app: Express, deps: PeopleDependencies, consoleOrigin: string, webhooks: WebhookDeliveriesPort): void {
  const signedIn = requireSession(deps, 'signed_in', consoleOrigin);

  app.get(webhookDeliveryPaths.deliveries, signedIn, async (req, res) => {
    const operator = await findOperatorById(deps.pool, sessionOf(res).session.subjectId);
    if (operator?.status !== 'active') throw new ConsoleError('CON_1004');
    if (!mayPerform(operator.roles, 'read')) throw new ConsoleError('CON_3001');
    const query = parsedInput(listQuery, req.query, 'query parameters');
    const after = query.cursor === undefined ? undefined : decodePageCursor(query.cursor);
    if (query.cursor !== undefined && after === undefined) throw new ConsoleError('CON_2001', 'cursor: not a cursor this list gave; start again without it');
    const page = await webhooks.listDeliveries(
      { status: query.status, partnerId: query.partnerId?.toLowerCase(), afterCreatedAt: after === undefined ? undefined : String(after.createdAt), afterId: after?.id, pageSize: query.pageSize },
      requestIdOf(res),
    );
    res.json({ success: true, data: { deliveries: page.deliveries, nextCursor: page.next === null ? null : encodePageCursor(page.next) } });
  });

  app.post(webhookDeliveryPaths.redeliver, signedIn, async (req, res) => {
    const deliveryId = String(req.params.deliveryId);
    if (!isUuid(deliveryId)) throw new ConsoleError('CON_4010');
    const operatorId = sessionOf(res).session.subjectId;
    const idempotencyKey = idempotencyKeyOf(req);
    const requestId = idempotencyKey === undefined ? randomUUID() : requestIdOfKey('webhook_delivery.redeliver', operatorId, idempotencyKey);
    const outcome = await redeliverByPerson(deps.pool, webhooks, operatorId, { deliveryId: deliveryId.toLowerCase(), requestId }, originOf(req, res));
    if (outcome.kind === 'refused') throw outcome.reason === 'unknown-target' ? new ConsoleError('CON_4010') : refusalOf(outcome.reason, outcome.message);
    res.json({ success: true, data: outcome.data });
  });
}
