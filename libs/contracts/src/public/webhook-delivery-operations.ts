import { anyRoute, bearerAdmission, codes, example, json, operationFamily, partnerAccess } from './operation-parts';
import {
  deliveryPageExample,
  redeliveredDeliveryExample,
  redeliveryBatchExample,
  redeliveryBatchSchema,
  webhookDeliveryListQuerySchema,
  webhookDeliveryPageSchema,
  webhookDeliveryParamsSchema,
  webhookDeliverySchema,
  webhookRedeliverRequestSchema,
  webhookTestDeliveryExample,
} from './webhook-deliveries';

/** The partner's webhook delivery log and its redelivery, one delivery or every failed one (additions to the spec, issue 5). */
export const webhookDeliveryOperations = operationFamily([
  {
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    pathTemplate: '/partner/v1/webhooks/deliveries',
    tag: 'Webhook deliveries',
    summary: 'List your webhook deliveries',
    description: 'Your deliveries, newest first, each with every attempt (an addition to the spec). Unknown or invalid query parameters are 400 PKC_2008 naming them.',
    ...partnerAccess(null),
    request: { query: webhookDeliveryListQuerySchema },
    success: { status: 200, description: 'A page of deliveries.', schema: webhookDeliveryPageSchema, enveloped: true, examples: { page: example('One failed delivery', deliveryPageExample) } },
    errorCodes: codes(anyRoute, bearerAdmission),
  },
  {
    operationId: 'redeliverWebhookDelivery',
    method: 'POST',
    pathTemplate: '/partner/v1/webhooks/deliveries/:deliveryId/redeliver',
    tag: 'Webhook deliveries',
    summary: 'Send one delivery again',
    description:
      'A delivered, failed or skipped delivery starts a new round (an attempt now, then up to 3 retries); a pending one is brought forward; a delivering one is left as it is. The event keeps its body and webhook-id. No body is needed. Another partner’s delivery answers like an unknown one (404 PKC_6002).',
    ...partnerAccess(null),
    request: { params: webhookDeliveryParamsSchema },
    success: { status: 202, description: 'The delivery, now pending.', schema: webhookDeliverySchema, enveloped: true, examples: { redelivered: example('Pending again', redeliveredDeliveryExample) } },
    errorCodes: codes(anyRoute, bearerAdmission, ['PKC_6002']),
  },
  {
    operationId: 'redeliverFailedWebhookDeliveries',
    method: 'POST',
    pathTemplate: '/partner/v1/webhooks/redeliver',
    tag: 'Webhook deliveries',
    summary: 'Send failed deliveries again',
    description: 'Every failed delivery created at or after `since` starts a new round, oldest first, at most 1,000 per call (more: true means call again).',
    ...partnerAccess(null),
    request: { body: { schema: webhookRedeliverRequestSchema, required: true, mediaTypes: json, description: 'Which deliveries.' } },
    success: { status: 202, description: 'What was sent again.', schema: redeliveryBatchSchema, enveloped: true, examples: { batch: example('Two deliveries', redeliveryBatchExample) } },
    errorCodes: codes(anyRoute, bearerAdmission),
  },
  {
    operationId: 'sendTestWebhook',
    method: 'POST',
    pathTemplate: '/partner/v1/webhooks/test',
    tag: 'Webhook deliveries',
    summary: 'Send a test webhook',
    description:
      'Sends a webhook.test event to your registered webhook URL, signed with your current secrets and retried like any other event, so you can check your receiver end to end (an addition to the spec). It names no transaction and moves no money. No body is needed. The answer is the new delivery (pending); follow it with GET /webhooks/deliveries?referenceId=<its referenceId>. Without a registered webhook URL: 409 PKC_6004, nothing sent.',
    ...partnerAccess(null),
    request: {},
    success: { status: 202, description: 'The test delivery, pending.', schema: webhookDeliverySchema, enveloped: true, examples: { pending: example('Pending', webhookTestDeliveryExample) } },
    errorCodes: codes(anyRoute, bearerAdmission, ['PKC_6004']),
  },
]);
