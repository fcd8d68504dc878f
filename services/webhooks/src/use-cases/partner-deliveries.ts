import { randomBytes, randomUUID } from 'node:crypto';
import { withTransaction } from '@pwa/db';
import { currentLogContext } from '@pwa/logging';
import { currentTraceparent } from '@pwa/telemetry';
import { isUuid, parsePublicInput, webhookDeliveryListQuerySchema, webhookRedeliverRequestSchema } from '@pwa/contracts';
import { PkcError, invalidCursorError } from '@pwa/errors';
import { z } from '@pwa/config';
import {
  attemptsOf,
  findDelivery,
  insertDelivery,
  listDeliveries,
  redeliverFailedSince,
  redeliverOne,
  type AttemptRecord,
  type Delivery,
} from '../store/delivery-store';
import { webhookTestBodyOf, webhookTestReferenceIdOf } from '../domain/webhook-payload';
import { findPartner } from '../store/partner-store';
import type { WebhooksDependencies } from './dependencies';

export interface AttemptView {
  attempt: number;
  startedAt: string;
  outcome: 'succeeded' | 'failed';
  statusCode: number | null;
  latencyMs: number | null;
  error: string | null;
}

export interface DeliveryView {
  deliveryId: string;
  eventId: string;
  event: string;
  referenceId: string;
  status: Delivery['status'];
  attemptCount: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  failedAt: string | null;
  attempts: AttemptView[];
}

/** The query and the redelivery body are public contracts (libs/contracts, in the OpenAPI document). */
const listQuerySchema = webhookDeliveryListQuerySchema;
const redeliverBodySchema = webhookRedeliverRequestSchema;

const cursorSchema = z.object({ createdAt: z.iso.datetime(), deliveryId: z.uuid() });


/** The partner's deliveries, newest first, with every attempt, in the one shape of every list. */
export async function listPartnerDeliveries(
  dependencies: WebhooksDependencies,
  partnerId: string,
  query: unknown,
): Promise<{ items: DeliveryView[]; nextCursor: string | null; hasMore: boolean; deliveries: DeliveryView[] }> {
  const filters = parsePublicInput(listQuerySchema, query, 'query');
  const after = filters.cursor === undefined ? undefined : decodeCursor(filters.cursor);
  const deliveries = await listDeliveries(dependencies.pool, {
    partnerId,
    status: filters.status,
    eventType: filters.event,
    referenceId: filters.referenceId,
    from: filters.from === undefined ? undefined : new Date(filters.from),
    to: filters.to === undefined ? undefined : new Date(filters.to),
    after,
    limit: filters.limit + 1,
  });
  const page = deliveries.slice(0, filters.limit);
  const attempts = await attemptsOf(dependencies.pool, page.map((delivery) => delivery.deliveryId));
  const last = page[page.length - 1];
  const items = page.map((delivery) => deliveryView(delivery, attempts.get(delivery.deliveryId) ?? []));
  const hasMore = deliveries.length > filters.limit && last !== undefined;
  // The one shape of every list; `deliveries`, the same array, stays one version as a deprecated alias (decision 0077).
  return { items, nextCursor: hasMore && last ? encodeCursor(last) : null, hasMore, deliveries: items };
}

/**
 * Sends one delivery again: delivered, failed or skipped ones start a new cycle (an attempt now,
 * then the retries), a pending one is brought forward, one being sent is left as it is. Another
 * partner's delivery is answered like an unknown one (404 PKC_6002), so ids reveal nothing.
 */
export async function redeliverPartnerDelivery(dependencies: WebhooksDependencies, partnerId: string, deliveryId: string): Promise<DeliveryView> {
  if (!isUuid(deliveryId)) throw new PkcError('PKC_6002', 'No such delivery');
  const changed = await redeliverOne(dependencies.pool, partnerId, deliveryId.toLowerCase());
  const delivery = changed ?? (await findDelivery(dependencies.pool, deliveryId.toLowerCase()));
  if (delivery?.partnerId !== partnerId) throw new PkcError('PKC_6002', 'No such delivery');
  if (changed) dependencies.wakeWorker();
  const attempts = await attemptsOf(dependencies.pool, [delivery.deliveryId]);
  return deliveryView(delivery, attempts.get(delivery.deliveryId) ?? []);
}

/** Starts a new cycle for every failed delivery created since the given time (bounded per request). */
export async function redeliverFailedDeliveries(
  dependencies: WebhooksDependencies,
  partnerId: string,
  body: unknown,
): Promise<{ redelivered: number; deliveryIds: string[]; more: boolean }> {
  const request = parsePublicInput(redeliverBodySchema, body ?? {}, 'body');
  const max = dependencies.settings.redeliverBatchMax;
  const deliveryIds = await redeliverFailedSince(dependencies.pool, partnerId, new Date(request.since), max);
  if (deliveryIds.length > 0) dependencies.wakeWorker();
  return { redelivered: deliveryIds.length, deliveryIds, more: deliveryIds.length === max };
}

/**
 * A webhook.test delivery for the partner (issue 28): recorded pending like any event's, so the
 * worker signs, sends and retries it as it does the others, and it is listed under its own PKT-…
 * id. Without a webhook URL nothing is recorded: 409 PKC_6004 says to register one first.
 */
export async function sendTestWebhook(dependencies: WebhooksDependencies, partnerId: string): Promise<DeliveryView> {
  const partner = await findPartner(dependencies.pool, partnerId);
  if (partner?.webhookUrl == null) throw new PkcError('PKC_6004', 'No webhook URL is registered: set one first (the dashboard’s Developers page, or ask the operator); no test webhook was sent');
  const askedAt = new Date();
  const deliveryId = randomUUID();
  const referenceId = webhookTestReferenceIdOf(askedAt, randomBytes(8).toString('hex'));
  await withTransaction(dependencies.pool, (client) =>
    insertDelivery(client, {
      deliveryId,
      eventId: randomUUID(),
      partnerId,
      eventType: 'webhook.test',
      referenceId,
      body: webhookTestBodyOf(referenceId, askedAt),
      status: 'pending',
      lastError: null,
      traceparent: currentTraceparent() ?? null,
      requestId: currentLogContext()?.requestId ?? null,
    }),
  );
  dependencies.wakeWorker();
  const delivery = await findDelivery(dependencies.pool, deliveryId);
  if (!delivery) throw new Error(`test delivery ${deliveryId} was not recorded`);
  return deliveryView(delivery, []);
}

function deliveryView(delivery: Delivery, attempts: readonly AttemptRecord[]): DeliveryView {
  return {
    deliveryId: delivery.deliveryId,
    eventId: delivery.eventId,
    event: delivery.eventType,
    referenceId: delivery.referenceId,
    status: delivery.status,
    attemptCount: delivery.attemptCount,
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
    lastError: delivery.lastError,
    createdAt: delivery.createdAt.toISOString(),
    deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
    failedAt: delivery.failedAt?.toISOString() ?? null,
    attempts: attempts.map((attempt) => ({
      attempt: attempt.attemptNumber,
      startedAt: attempt.startedAt.toISOString(),
      outcome: attempt.outcome,
      statusCode: attempt.statusCode,
      latencyMs: attempt.latencyMs,
      error: attempt.error,
    })),
  };
}

function encodeCursor(delivery: Delivery): string {
  return Buffer.from(JSON.stringify({ createdAt: delivery.createdAt.toISOString(), deliveryId: delivery.deliveryId })).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; deliveryId: string } {
  try {
    const parsed = cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return { createdAt: new Date(parsed.createdAt), deliveryId: parsed.deliveryId };
  } catch {
    throw invalidCursorError();
  }
}
