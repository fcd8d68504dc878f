import { z } from 'zod';
import { instantField, instantInputField, uuidField } from './fields';
import { pageQueryFields } from './pagination';
import { webhookDeliveryStatuses, webhookEventTypes } from './webhook-deliveries';
import { webhookExampleBody, webhookExampleHeaders, webhookPayloadSchemas } from './webhook-events';

/**
 * GET /partner/v1/events and GET /partner/v1/events/{eventId}: every event sent or to be sent to
 * the partner's webhook in the last 30 days, whatever became of its delivery (decision 0051).
 */

/** How long an event stays listed (and its delivery kept). */
export const partnerEventRetentionDays = 30;

export const partnerEventListQuerySchema = z
  .object({
    type: z.enum(webhookEventTypes).optional().meta({ param: { description: 'Only events of this kind.', example: 'collection.completed' } }),
    since: instantInputField
      .optional()
      .meta({ param: { description: `Only events recorded at or after this time (ISO 8601 with Z or an offset). Events older than ${partnerEventRetentionDays} days are gone either way.`, example: '2024-06-10T00:00:00Z' } }),
    ...pageQueryFields,
  })
  .strict();
export type PartnerEventListQuery = z.output<typeof partnerEventListQuerySchema>;

export const partnerEventParamsSchema = z.object({
  eventId: z.string().meta({ param: { description: 'The event’s id (the webhook-id header of its deliveries, a UUID); anything else, or another partner’s, is 404 PKC_6002.', example: '5d6f0a1e-2b3c-4d5e-8f90-a1b2c3d4e5f6' } }),
});

export const partnerEventSchema = z
  .strictObject({
    eventId: uuidField.meta({ description: 'The event’s id: the webhook-id header of every delivery attempt. Deduplicate on it.', example: '5d6f0a1e-2b3c-4d5e-8f90-a1b2c3d4e5f6' }),
    type: z.enum(webhookEventTypes).meta({ description: 'The event kind (the payload’s event). More may be added: ignore kinds you do not know.', example: 'collection.completed' }),
    createdAt: instantField.meta({ description: 'When the event was recorded for delivery (the list’s order).' }),
    deliveryStatus: z.enum(webhookDeliveryStatuses).meta({
      description: 'What became of its webhook so far: pending, delivering, delivered, failed (all attempts failed) or skipped (no webhook URL was registered). See GET /webhooks/deliveries for the attempts.',
      example: 'delivered',
    }),
    payload: z
      .union(Object.values(webhookPayloadSchemas))
      .meta({ description: 'The webhook body, exactly as sent (or to be sent): the same fields and values, timestamp included.' }),
  })
  .meta({ id: 'PartnerEvent', description: 'One event for your webhook, as recorded.' });
export type PublicPartnerEvent = z.infer<typeof partnerEventSchema>;

export const partnerEventPageSchema = z
  .strictObject({
    items: z.array(partnerEventSchema).meta({ description: 'Oldest first.' }),
    nextCursor: z.string().min(1).nullable().meta({ description: 'Opaque; pass it as cursor for the next page. null on the last page: to catch up later, ask with since set to the last event’s createdAt and skip the eventIds you have.' }),
    hasMore: z.boolean().meta({ description: 'true when there is a next page (then nextCursor is set).' }),
  })
  .meta({ id: 'PartnerEventPage', description: 'A page of your events, oldest first.' });
export type PublicPartnerEventPage = z.infer<typeof partnerEventPageSchema>;

export const partnerEventExample: PublicPartnerEvent = {
  eventId: webhookExampleHeaders['webhook-id'],
  type: 'collection.completed',
  createdAt: '2024-06-10T06:15:02.130Z',
  deliveryStatus: 'delivered',
  payload: JSON.parse(webhookExampleBody) as PublicPartnerEvent['payload'],
};

export const partnerEventPageExample: PublicPartnerEventPage = { items: [partnerEventExample], nextCursor: null, hasMore: false };
