import { z } from 'zod';
import { adminActorSchema } from './wallet-admin';
import { uuidField } from './wire-fields';

/**
 * The webhooks service's internal admin API for the back-office (issue 27): the delivery backlog
 * and the dead letters across partners, and a redelivery by a person. Owned by webhooks (it parses
 * with these schemas); internal network only, never behind the gateway, never in the public
 * OpenAPI. A delivery is shown by its state, attempts and last outcome: never its body, signature
 * or any secret.
 */
export const webhooksAdminPaths = {
  deliveries: '/internal/admin/deliveries',
  redeliveries: '/internal/admin/delivery-redeliveries',
} as const;

/**
 * The backlog's states as people name them: `pending` (no attempt of this cycle failed yet: due,
 * or its first attempt in flight), `retrying` (an attempt failed, the next is scheduled or in
 * flight), `dead` (every retry failed: the dead letters, until redelivered).
 */
export const webhookBacklogStatuses = ['pending', 'retrying', 'dead'] as const;
export type WebhookBacklogStatus = (typeof webhookBacklogStatuses)[number];

/** GET /internal/admin/deliveries: newest first, keyset pages by createdAt to the microsecond and delivery id; no status: all three. */
export const webhooksAdminDeliveryQuerySchema = z.strictObject({
  status: z.enum(webhookBacklogStatuses).optional(),
  partnerId: uuidField.optional(),
  afterCreatedAt: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/).optional(),
  afterId: uuidField.optional(),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export type WebhooksAdminDeliveryQuery = z.output<typeof webhooksAdminDeliveryQuerySchema>;

export const webhooksAdminDeliverySchema = z.object({
  deliveryId: uuidField,
  eventId: uuidField,
  partnerId: uuidField,
  event: z.string(),
  referenceId: z.string(),
  status: z.enum(webhookBacklogStatuses),
  /** The service's own state: pending (waiting), delivering (an attempt in flight), failed. */
  deliveryState: z.enum(['pending', 'delivering', 'failed']),
  /** Attempts ever made, redeliveries included. */
  attemptCount: z.number().int().min(0),
  /** The last attempt's HTTP status (null: none yet, or no answer: timeout, refused target). */
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  /** When the next attempt is due (null while one is in flight or when dead). */
  nextAttemptAt: z.string().nullable(),
  /** UTC to the microsecond: the keyset position. */
  createdAt: z.string(),
  failedAt: z.string().nullable(),
});
export type WebhooksAdminDelivery = z.output<typeof webhooksAdminDeliverySchema>;

export const webhooksAdminDeliveryPageSchema = z.object({
  deliveries: z.array(webhooksAdminDeliverySchema),
  next: z.object({ createdAt: z.string(), id: uuidField }).nullable(),
});

/**
 * POST /internal/admin/delivery-redeliveries: a person sends one delivery again (as the partner's
 * own redeliver does): dead, delivered or skipped start a new cycle, pending is due now, one in
 * flight is left alone; the person is recorded in webhooks.operator_redeliveries. 404 PKC_6002 for an
 * unknown delivery; 400 PKC_2008 without the person; 409 PKC_6001 the request id used for another delivery.
 */
export const webhooksAdminRedeliveryRequestSchema = z.strictObject({
  /** The idempotency key: sent again, the first outcome is answered `replayed` and no second cycle starts (a double click sends the event once). */
  requestId: uuidField,
  deliveryId: uuidField,
  actor: adminActorSchema,
});

/** 200: the delivery's state before and after (for a replay, as the first call left it). */
export const webhooksAdminRedeliveryAnswerSchema = z.object({
  requestId: uuidField,
  replayed: z.boolean(),
  deliveryId: uuidField,
  partnerId: uuidField,
  before: z.object({ deliveryState: z.string() }),
  after: z.object({ deliveryState: z.string(), nextAttemptAt: z.string().nullable() }),
});
export type WebhooksAdminRedeliveryAnswer = z.output<typeof webhooksAdminRedeliveryAnswerSchema>;
