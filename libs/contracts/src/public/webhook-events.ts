import { z } from 'zod';
import { collectionEventDataSchema, collectionStatusOfEvent } from '../collection-events';
import { disbursementEventDataSchema } from '../disbursement-events';
import { refundEventDataSchema } from '../refund-events';
import { bulkEventDataSchema } from '../bulk-events';
import { bulkReferenceIdField } from './bulk-payouts';
import { amountDecimalPlacesMax, collectionReferenceIdField, disbursementReferenceIdField, failureReasonSchema, instantField } from './fields';
import { refundReferenceIdField } from './refunds';
import { disbursementReversalSchema } from './disbursements';
import { webhookEventTypes, webhookTestReferenceIdField, type WebhookEventType } from './webhook-deliveries';

/**
 * The webhook body as the webhooks service sends it (services/webhooks/src/domain/webhook-payload.ts):
 * the spec's fields of the event data contracts (collection-events.ts, disbursement-events.ts,
 * refund-events.ts), in the spec's order, plus failureReason on failed events, on refund
 * events collectionReferenceId (the refunded collection) and on disbursement.reversed `reversal`
 * at the end. bulk.completed (issue 20) is
 * the bulk event's data (bulk-events.ts) without eventId and partnerId, in its order. Nothing else
 * of the event leaks out.
 */
const collection = collectionEventDataSchema.shape;
const disbursement = disbursementEventDataSchema.shape;
const refund = refundEventDataSchema.shape;
const bulk = bulkEventDataSchema.shape;

const decimals = { 'x-decimal-places': amountDecimalPlacesMax } as const;

type Family = 'collection' | 'disbursement' | 'refund';
/** The events of one transaction (a collection, disbursement or refund): the spec's fields. */
type TransactionEventType = Exclude<WebhookEventType, 'bulk.completed' | 'webhook.test'>;

const referenceIdFields = { collection: collectionReferenceIdField, disbursement: disbursementReferenceIdField, refund: refundReferenceIdField } as const;
const shapes = { collection, disbursement, refund } as const;

function payloadFields(family: Family) {
  const shape = shapes[family];
  return {
    referenceId: referenceIdFields[family],
    externalId: shape.externalId.meta({ description: family === 'refund' ? 'Your reference from the refund call.' : 'Your reference from the confirm call.', example: family === 'refund' ? 'refund-1001' : 'order-1001' }),
    amount: shape.amount.meta({ description: family === 'refund' ? 'The refunded amount (major units, at most 2 decimals).' : 'As in the confirm answer (major units, at most 2 decimals).', example: 25.5, ...decimals }),
    currency: shape.currency.meta({ description: 'LRD or USD.', example: 'USD' }),
    fee: shape.fee.meta({ description: family === 'refund' ? 'Always 0: a refund carries no fee.' : 'As in the confirm answer (major units, at most 2 decimals).', example: family === 'refund' ? 0 : 0.26, ...decimals }),
  };
}

function familyOf(event: TransactionEventType): Family {
  if (event.startsWith('collection.')) return 'collection';
  return event.startsWith('refund.') ? 'refund' : 'disbursement';
}

const timestampField = instantField.meta({ description: 'When the event happened (for a completed disbursement or refund, when the money moved), UTC.' });
const transactionIdField = collection.transactionId.unwrap().meta({ description: 'TXN-<uppercase hex>: the wallet transaction that moved the money.', example: 'TXN-3C9A0F7B12E45D68' });
const collectionReferenceIdOfRefund = collectionReferenceIdField.meta({ description: 'The refunded collection’s referenceId (addition to the spec’s fields).' });

const statusOfEvent: Readonly<Record<TransactionEventType, string>> = {
  ...collectionStatusOfEvent,
  'disbursement.completed': 'completed',
  'disbursement.failed': 'failed',
  'disbursement.reversed': 'completed',
  'refund.completed': 'completed',
  'refund.failed': 'failed',
};

const countField = (description: string, example: number) => bulk.completedCount.meta({ description, example });
const bulkMoneyField = (description: string, example: number) => bulk.totalAmount.meta({ description, example, ...decimals });

/** The body of bulk.completed: the bulk as it ended, the figures GET /disbursement/bulk/{bulkId} shows (its counts flattened). */
export const bulkCompletedPayloadSchema = z.strictObject({
  event: z.literal('bulk.completed'),
  bulkId: bulkReferenceIdField,
  externalId: bulk.externalId.meta({ description: 'Your reference from the bulk transfer call.', example: 'payroll-2026-11' }),
  status: bulk.status.meta({ description: 'completed (every item paid) or completed_with_failures (at least one item failed: read the bulk’s items).', example: 'completed_with_failures' }),
  currency: bulk.currency.meta({ description: 'LRD or USD.', example: 'USD' }),
  itemCount: bulk.itemCount.meta({ description: 'How many items the bulk accepted (its valid items).', example: 2 }),
  completedCount: countField('How many were paid.', 1),
  failedCount: countField('How many failed (no money moved for them).', 1),
  totalAmount: bulkMoneyField('The accepted items’ amounts added up (major units).', 65.5),
  totalFee: bulkMoneyField('The accepted items’ fees added up.', 1.16),
  completedAmount: bulkMoneyField('What reached users: the paid items’ amounts added up.', 25.5),
  completedFee: bulkMoneyField('The paid items’ fees added up (what the bulk cost you beside completedAmount).', 0.51),
  timestamp: instantField.meta({ description: 'When the last item became final, UTC.' }),
});

/** The body of webhook.test: what the partner asked for to check their receiver (signed like any other). */
export const webhookTestPayloadSchema = z.strictObject({
  event: z.literal('webhook.test'),
  referenceId: webhookTestReferenceIdField,
  message: z.string().meta({ description: 'Says what this is; no money moved.', example: 'A test webhook you asked for: no money moved.' }),
  timestamp: instantField.meta({ description: 'When it was asked for, UTC.' }),
});

/**
 * The body of one event kind: `event` and `status` fixed, transactionId exactly on completed
 * events, failureReason only on failed ones, collectionReferenceId last on refund events; the
 * bulk's figures on bulk.completed.
 */
export function webhookPayloadSchema(event: WebhookEventType) {
  if (event === 'bulk.completed') return bulkCompletedPayloadSchema;
  if (event === 'webhook.test') return webhookTestPayloadSchema;
  const family = familyOf(event);
  const status = statusOfEvent[event];
  const base = {
    event: z.literal(event),
    ...payloadFields(family),
    status: z.literal(status).meta({ description: 'The status after the change (final).' }),
  };
  const ofRefund = family === 'refund' ? { collectionReferenceId: collectionReferenceIdOfRefund } : {};
  if (event === 'disbursement.reversed') {
    return z.strictObject({
      ...base,
      status: z.literal('completed').meta({ description: 'Still completed: the money reached the user before it was taken back (the spec has no reversed status).' }),
      transactionId: transactionIdField.meta({ description: 'The disbursement’s own transaction (TXN-…), as in disbursement.completed.' }),
      timestamp: instantField.meta({ description: 'When the reversal was posted, UTC (= reversal.reversedAt).' }),
      reversal: disbursementReversalSchema,
    });
  }
  if (status === 'completed') {
    return z.strictObject({ ...base, transactionId: transactionIdField, timestamp: timestampField, ...ofRefund });
  }
  if (status === 'failed') {
    return z.strictObject({
      ...base,
      timestamp: timestampField,
      // Refund events were born with a reason; collection and disbursement events recorded before it existed may lack one.
      failureReason: family === 'refund' ? failureReasonSchema.meta({ description: 'Why no money moved.' }) : failureReasonSchema.optional().meta({ description: 'Why no money moved (addition to the spec); events recorded before it existed may lack it.' }),
      ...ofRefund,
    });
  }
  return z.strictObject({ ...base, timestamp: timestampField });
}

/** "collection.completed" → "CollectionCompleted". */
export function webhookNameOf(event: WebhookEventType): string {
  return event
    .split('.')
    .map((part) => `${part[0]?.toUpperCase() ?? ''}${part.slice(1)}`)
    .join('');
}

/** One named schema per event kind (CollectionCompletedEvent, …), made once: a zod id names one schema. */
export const webhookPayloadSchemas: Readonly<Record<WebhookEventType, z.ZodType>> = namedPayloadSchemas();

function namedPayloadSchemas(): Record<WebhookEventType, z.ZodType> {
  const schemas: Partial<Record<WebhookEventType, z.ZodType>> = {};
  for (const event of webhookEventTypes) {
    schemas[event] = webhookPayloadSchema(event).meta({ id: `${webhookNameOf(event)}Event`, description: `The body of ${event}.` });
  }
  return schemas as Record<WebhookEventType, z.ZodType>;
}

/** The headers of every attempt (services/webhooks/src/domain/signing.ts): the spec's three, then Standard Webhooks'. */
export const webhookHeadersSchema = z.object({
  'X-Service-Partner-Id': z.uuid().meta({ param: { description: 'Your client ID.', example: '3f0c2a5e-8b1d-4c7a-9e6f-2d4b8a1c5e90' } }),
  'X-Service-Signature': z
    .string()
    .regex(/^sha256=[0-9a-f]{64}$/)
    .meta({
      param: {
        description:
          'The specification’s signature: sha256= and the lowercase hex HMAC-SHA256 of the raw body, keyed with your webhook secret exactly as given to you (the whole whsec_… string as UTF-8 bytes). During a rotation it is made with the new secret only. It does not cover a timestamp.',
        example: 'sha256=174f13b04bb75c761e665a599ba4f63da77b907e60013e04645f740e023c3d2c',
      },
    }),
  'webhook-id': z.uuid().meta({ param: { description: 'The event’s id (Standard Webhooks): the same on every retry and redelivery. Deduplicate on it.', example: '5d6f0a1e-2b3c-4d5e-8f90-a1b2c3d4e5f6' } }),
  'webhook-timestamp': z
    .string()
    .regex(/^\d+$/)
    .meta({ param: { description: 'Unix time in seconds when this attempt started (new on every attempt). Reject a request more than 5 minutes from your clock.', example: '1718000102' } }),
  'webhook-signature': z
    .string()
    .regex(/^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$/)
    .meta({
      param: {
        description:
          'Standard Webhooks: v1, and the base64 HMAC-SHA256 of <webhook-id>.<webhook-timestamp>.<raw body>, keyed with the base64-decoded part of your secret after whsec_. During a rotation one v1,… per valid secret, separated by spaces.',
        example: 'v1,Xu9uojkSrMjSTeKZcOf+Ppt3EYgZnpGiVaQKhCKwxFI=',
      },
    }),
});

/** The exact body of the guide's example request; its headers verify with the guide's example secret. */
export const webhookExampleSecret = 'whsec_1bdVGd2Wts0bjsXRig29h+zLRfQQqKAoDiQC20w9pk0=';
export const webhookExampleBody =
  '{"event":"collection.completed","referenceId":"PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E","externalId":"order-1001","amount":25.5,"currency":"USD","fee":0.26,"status":"completed","transactionId":"TXN-3C9A0F7B12E45D68","timestamp":"2024-06-10T06:15:02.000Z"}';
export const webhookExampleHeaders = {
  'X-Service-Partner-Id': '3f0c2a5e-8b1d-4c7a-9e6f-2d4b8a1c5e90',
  'X-Service-Signature': 'sha256=174f13b04bb75c761e665a599ba4f63da77b907e60013e04645f740e023c3d2c',
  'webhook-id': '5d6f0a1e-2b3c-4d5e-8f90-a1b2c3d4e5f6',
  'webhook-timestamp': '1718000102',
  'webhook-signature': 'v1,Xu9uojkSrMjSTeKZcOf+Ppt3EYgZnpGiVaQKhCKwxFI=',
} as const;

const collectionExample = JSON.parse(webhookExampleBody) as Record<string, unknown>;
const refundExample = {
  event: 'refund.completed',
  referenceId: 'PKR-1718003600000-7C2E91A04B3D58F6A1E2D3C4',
  externalId: 'refund-1001',
  amount: 10,
  currency: 'USD',
  fee: 0,
  status: 'completed',
  transactionId: 'TXN-5E2B7C09A14D3F68',
  timestamp: '2024-06-10T07:13:20.412Z',
  collectionReferenceId: 'PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E',
};
const disbursementExample = {
  event: 'disbursement.completed',
  referenceId: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4',
  externalId: 'payout-2002',
  amount: 5000,
  currency: 'LRD',
  fee: 100,
  status: 'completed',
  transactionId: 'TXN-8D41E6B09A2C7F35',
  timestamp: '2024-06-10T06:13:20.412Z',
};

const bulkCompletedExample = {
  event: 'bulk.completed',
  bulkId: 'PKB-1718000000000-2A9C4E6F8B1D3F5A7C9E0B2D',
  externalId: 'payroll-2026-11',
  status: 'completed_with_failures',
  currency: 'USD',
  itemCount: 2,
  completedCount: 1,
  failedCount: 1,
  totalAmount: 65.5,
  totalFee: 1.16,
  completedAmount: 25.5,
  completedFee: 0.51,
  timestamp: '2024-06-10T06:20:04.518Z',
};

/** One example body per event kind, consistent with the guide's examples. */
export const webhookPayloadExamples: Readonly<Record<WebhookEventType, Record<string, unknown>>> = {
  'webhook.test': { event: 'webhook.test', referenceId: 'PKT-1718000000000-0A1B2C3D4E5F6071', message: 'A test webhook you asked for: no money moved.', timestamp: '2024-06-10T06:00:00.000Z' },
  'collection.completed': collectionExample,
  'collection.declined': withoutTransaction(collectionExample, 'collection.declined', 'declined'),
  'collection.expired': withoutTransaction(collectionExample, 'collection.expired', 'expired'),
  'collection.failed': {
    ...withoutTransaction(collectionExample, 'collection.failed', 'failed'),
    failureReason: { code: 'PKC_4001', message: 'User balance insufficient for amount plus fee' },
  },
  'collection.cancelled': withoutTransaction(collectionExample, 'collection.cancelled', 'cancelled'),
  'disbursement.completed': disbursementExample,
  'disbursement.failed': {
    ...withoutTransaction(disbursementExample, 'disbursement.failed', 'failed'),
    failureReason: { code: 'PKC_4002', message: 'Partner balance insufficient for amount plus fee' },
  },
  'disbursement.reversed': {
    ...disbursementExample,
    event: 'disbursement.reversed',
    timestamp: '2024-06-11T09:02:41.207Z',
    reversal: { transactionId: 'TXN-6A1F0C3E9B27D548', amount: 5000, currency: 'LRD', reversedAt: '2024-06-11T09:02:41.207Z' },
  },
  'refund.completed': refundExample,
  'refund.failed': {
    ...withoutTransaction(refundExample, 'refund.failed', 'failed'),
    failureReason: { code: 'PKC_3002', message: 'User account not active (suspended or closed)' },
    // The spec's order, then the addition: collectionReferenceId stays last.
    collectionReferenceId: refundExample.collectionReferenceId,
  },
  'bulk.completed': bulkCompletedExample,
};

function withoutTransaction(example: Record<string, unknown>, event: string, status: string): Record<string, unknown> {
  const unresolved: Record<string, unknown> = { ...example, event, status };
  delete unresolved.transactionId;
  return unresolved;
}
