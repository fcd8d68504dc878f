import { z } from 'zod';
import { collectionReferenceIdPattern, instantField, instantInputField, uuidField } from './fields';
import { disbursementReferenceIdPattern } from '../disbursement-events';
import { refundReferenceIdPattern } from '../refund-events';
import { bulkReferenceIdPattern } from '../bulk-events';
import { webhookEventTypes } from './webhook-event-types';

export { webhookEventTypes };

/** The events the bus carries to the webhook service (every kind but webhook.test, which a partner's request makes). */
export const transactionWebhookEventTypes = webhookEventTypes.filter((type): type is Exclude<(typeof webhookEventTypes)[number], 'webhook.test'> => type !== 'webhook.test');

/** A test webhook's id, PKT-<creation time in ms>-<uppercase hex>, under which its delivery is listed (GET /webhooks/deliveries referenceId). */
export const webhookTestReferenceIdPattern = /^PKT-\d{1,20}-[0-9A-F]{16,64}$/;
export const webhookTestReferenceIdField = z
  .string()
  .regex(webhookTestReferenceIdPattern)
  .meta({ description: 'The test webhook’s own id (PKT-…): no transaction has it.', example: 'PKT-1718000000000-0A1B2C3D4E5F6071' });
export type WebhookEventType = (typeof webhookEventTypes)[number];

export const webhookDeliveryStatuses = ['pending', 'delivering', 'delivered', 'failed', 'skipped'] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

const deliveryStatusField = z.enum(webhookDeliveryStatuses).meta({
  id: 'WebhookDeliveryStatus',
  description: 'pending (waiting for its next attempt), delivering (an attempt is under way), delivered, failed (all attempts failed), skipped (no URL was registered).',
  example: 'failed',
});

const eventTypeField = z.enum(webhookEventTypes).meta({ id: 'WebhookEventType', description: 'The event kind. More may be added: ignore kinds you do not know.', example: 'collection.completed' });

/** A collection's, a disbursement's or a refund's referenceId, a bulk payout's bulkId, or a test webhook's id. */
const transactionReferenceIdField = z
  .string()
  .regex(new RegExp(`${collectionReferenceIdPattern.source}|${disbursementReferenceIdPattern.source}|${refundReferenceIdPattern.source}|${bulkReferenceIdPattern.source}|${webhookTestReferenceIdPattern.source}`))
  .meta({ description: 'The collection’s PKC-…, the disbursement’s PKD-… or the refund’s PKR-… referenceId, the bulk payout’s PKB-… bulkId (bulk.completed), or a test webhook’s PKT-… id (webhook.test).', example: 'PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E' });

/**
 * GET /partner/v1/webhooks/deliveries: the query as the webhooks service parses it. Unknown or
 * invalid parameters are 400 PKC_2008 naming them.
 */
export const webhookDeliveryListQuerySchema = z
  .object({
    status: z.enum(webhookDeliveryStatuses).optional().meta({ param: { description: 'Only deliveries in this status.' } }),
    event: z.enum(webhookEventTypes).optional().meta({ param: { description: 'Only deliveries of this event kind.' } }),
    referenceId: z.string().min(1).max(100).optional().meta({ param: { description: 'Only one transaction’s deliveries.' } }),
    from: z.iso.datetime({ offset: true }).optional().meta({ param: { description: 'Created at or after (ISO 8601 with Z or an offset).', example: '2024-06-10T00:00:00Z' } }),
    to: z.iso.datetime({ offset: true }).optional().meta({ param: { description: 'Created before (ISO 8601 with Z or an offset).' } }),
    limit: z.coerce.number().int().min(1).max(100).default(20).meta({ param: { description: 'Page size, 1 to 100.' } }),
    cursor: z.string().min(1).max(200).optional().meta({ param: { description: 'The nextCursor of the previous page (keep the same filters).' } }),
  })
  .strict();

/** POST /partner/v1/webhooks/redeliver: its body, as the webhooks service parses it (unknown fields: 400 PKC_2008). */
export const webhookRedeliverRequestSchema = z
  .object({
    status: z.literal('failed').meta({ description: 'Must be failed (redeliver skipped deliveries one by one).' }),
    since: instantInputField.meta({ description: 'Every failed delivery created at or after this time starts a new round.', example: '2024-06-10T06:00:00Z' }),
  })
  .strict()
  .meta({ id: 'RedeliverRequest', description: 'Which failed deliveries to send again.', example: { status: 'failed', since: '2024-06-10T06:00:00Z' } });

export const webhookDeliveryParamsSchema = z.object({
  deliveryId: z.string().meta({ param: { description: 'The deliveryId of one of your deliveries (a UUID); anything else is 404 PKC_6002.', example: '0b9e3c52-7a41-4d2e-9f0c-5e8a1b6d2c47' } }),
});

export const webhookDeliveryAttemptSchema = z
  .strictObject({
    attempt: z.number().int().positive().meta({ description: 'The attempt’s number, 1, 2, …' }),
    startedAt: instantField,
    outcome: z.enum(['succeeded', 'failed']),
    statusCode: z.number().int().nullable().meta({ description: 'Your receiver’s HTTP status; null without an answer.' }),
    latencyMs: z.number().int().min(0).nullable().meta({ description: 'How long the attempt took; null when unknown (outcome unknown: it may have reached you).' }),
    error: z.string().nullable().meta({ description: 'Why the attempt failed (HTTP 500, deadline of 10000 ms exceeded, target refused: …); null after a success.' }),
  })
  .meta({ id: 'WebhookDeliveryAttempt', description: 'One attempt to deliver an event.' });

export const webhookDeliverySchema = z
  .strictObject({
    deliveryId: uuidField.meta({ description: 'The delivery’s id, for redelivery.', example: '0b9e3c52-7a41-4d2e-9f0c-5e8a1b6d2c47' }),
    eventId: uuidField.meta({ description: 'The event’s id: the webhook-id header of every attempt.', example: '5d6f0a1e-2b3c-4d5e-8f90-a1b2c3d4e5f6' }),
    event: eventTypeField,
    referenceId: transactionReferenceIdField,
    status: deliveryStatusField,
    attemptCount: z.number().int().min(0).meta({ description: 'Attempts made so far, redeliveries included.' }),
    nextAttemptAt: instantField.nullable().meta({ description: 'When the next attempt is due (only while pending), else null.' }),
    lastError: z.string().nullable().meta({ description: 'The last failed attempt’s error; null after a success.' }),
    createdAt: instantField.meta({ description: 'When the event was recorded for delivery.' }),
    deliveredAt: instantField.nullable().meta({ description: 'The last time it was delivered (kept across redeliveries), else null.' }),
    failedAt: instantField.nullable().meta({ description: 'The last time it failed (kept across redeliveries), else null.' }),
    attempts: z.array(webhookDeliveryAttemptSchema),
  })
  .meta({ id: 'WebhookDelivery', description: 'One event’s delivery to your webhook URL, with every attempt.' });
export type PublicWebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryPageSchema = z
  .strictObject({
    items: z.array(webhookDeliverySchema).meta({ description: 'This page of your deliveries, newest first.' }),
    nextCursor: z.string().min(1).nullable().meta({ description: 'Opaque; pass it as cursor for the next page. null on the last page.' }),
    hasMore: z.boolean().meta({ description: 'true when there is a next page (then nextCursor is set).' }),
    deliveries: z.array(webhookDeliverySchema).meta({
      description: 'Deprecated alias of items (the same deliveries), kept for one version so integrations written against it keep working; read items (decision 0077).',
      deprecated: true,
    }),
  })
  .meta({ id: 'WebhookDeliveryPage', description: 'A page of your deliveries, in the one shape of every list: items, nextCursor, hasMore.' });
export type PublicWebhookDeliveryPage = z.infer<typeof webhookDeliveryPageSchema>;

export const redeliveryBatchSchema = z
  .strictObject({
    redelivered: z.number().int().min(0).meta({ description: 'How many deliveries started a new round.' }),
    deliveryIds: z.array(z.uuid()).meta({ description: 'Their ids, oldest first.' }),
    more: z.boolean().meta({ description: 'true when the per-call limit (1,000) was reached: call again.' }),
  })
  .meta({ id: 'RedeliveryBatch', description: 'The failed deliveries sent again.' });
export type PublicRedeliveryBatch = z.infer<typeof redeliveryBatchSchema>;

export const failedDeliveryExample: PublicWebhookDelivery = {
  deliveryId: '0b9e3c52-7a41-4d2e-9f0c-5e8a1b6d2c47',
  eventId: '5d6f0a1e-2b3c-4d5e-8f90-a1b2c3d4e5f6',
  event: 'collection.completed',
  referenceId: 'PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E',
  status: 'failed',
  attemptCount: 4,
  nextAttemptAt: null,
  lastError: 'HTTP 500',
  createdAt: '2024-06-10T06:15:02.130Z',
  deliveredAt: null,
  failedAt: '2024-06-10T06:21:46.905Z',
  attempts: [
    { attempt: 1, startedAt: '2024-06-10T06:15:02.140Z', outcome: 'failed', statusCode: 401, latencyMs: 48, error: 'HTTP 401' },
    { attempt: 2, startedAt: '2024-06-10T06:15:12.490Z', outcome: 'failed', statusCode: null, latencyMs: 10001, error: 'deadline of 10000 ms exceeded' },
    { attempt: 3, startedAt: '2024-06-10T06:16:16.520Z', outcome: 'failed', statusCode: null, latencyMs: 230, error: 'ECONNRESET: socket hang up' },
    { attempt: 4, startedAt: '2024-06-10T06:21:46.840Z', outcome: 'failed', statusCode: 500, latencyMs: 61, error: 'HTTP 500' },
  ],
};

export const webhookTestDeliveryExample: PublicWebhookDelivery = {
  deliveryId: '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  eventId: '2e4f6a8c-0b1d-4e3f-9a5b-7c9d1e3f5a7b',
  event: 'webhook.test',
  referenceId: 'PKT-1718000000000-0A1B2C3D4E5F6071',
  status: 'pending',
  attemptCount: 0,
  nextAttemptAt: '2024-06-10T06:00:00.120Z',
  lastError: null,
  createdAt: '2024-06-10T06:00:00.118Z',
  deliveredAt: null,
  failedAt: null,
  attempts: [],
};

export const deliveryPageExample: PublicWebhookDeliveryPage = { items: [failedDeliveryExample], nextCursor: null, hasMore: false, deliveries: [failedDeliveryExample] };

export const redeliveredDeliveryExample: PublicWebhookDelivery = {
  ...failedDeliveryExample,
  status: 'pending',
  nextAttemptAt: '2024-06-10T09:00:00.012Z',
};

export const redeliveryBatchExample: PublicRedeliveryBatch = {
  redelivered: 2,
  deliveryIds: ['0b9e3c52-7a41-4d2e-9f0c-5e8a1b6d2c47', '7c1d9e40-3f2a-4b85-a6d1-9e0f2b4c8a13'],
  more: false,
};
