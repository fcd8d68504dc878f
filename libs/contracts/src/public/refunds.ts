import { z } from 'zod';
import { externalIdLengthMax } from '../confirm-request';
import { refundReferenceIdPattern, refundStatuses } from '../refund-events';
import { amountDecimalPlacesMax, amountField, collectionReferenceIdField, currencyField, externalIdField, failureReasonSchema, instantField, nonNegativeAmountField, transactionIdField } from './fields';
import { pageSchemaOf } from './pagination';
import { createdRangeIsValid, transactionListFieldsOf } from './transaction-list-fields';

/**
 * Refunds of completed collections (issue 19, decision 0052): POST /partner/v1/collection/{ref}/refund,
 * GET /partner/v1/refund/{referenceId}, GET /partner/v1/refunds. The partner's balance pays the
 * user back in one balanced posting; a refund carries no fee, and the refunds of a collection never
 * add up to more than its amount.
 */

/** How long a refund's reason may be (as a collection's note). */
export const refundReasonLengthMax = 200;

export const refundReferenceIdField = z.string().regex(refundReferenceIdPattern).meta({
  id: 'RefundReferenceId',
  description: "A refund's id: PKR-<digits>-<uppercase hex>. Treat it as an opaque string.",
  example: 'PKR-1718003600000-7C2E91A04B3D58F6A1E2D3C4',
});

export const refundRequestSchema = z
  .object({
    externalId: externalIdField.meta({
      description: `Your unique reference for this refund, 1 to ${externalIdLengthMax} characters. Missing, empty or not a string: 400 PKC_2008; longer: 400 PKC_2006; held by a refund of yours in progress or completed: 409 PKC_6001 naming it (a failed refund frees it).`,
      example: 'refund-1001',
    }),
    amount: amountField.nullable().optional().meta({
      description: `How much to give back, in major units (at most ${amountDecimalPlacesMax} decimals; not a positive number with at most 2 decimals: 400 PKC_2002). Left out or null: what is left to refund (amount − refundedAmount). More than what is left: 409 PKC_6006.`,
      example: 10,
    }),
    reason: z
      .string()
      .max(refundReasonLengthMax)
      .nullable()
      .optional()
      .meta({ description: `Why, for your records and the user’s transaction history; at most ${refundReasonLengthMax} characters (longer: 400 PKC_2007). Absent, null and "" all mean none.`, example: 'Goods returned' }),
  })
  .strict()
  .meta({
    id: 'RefundRequest',
    description:
      'A refund of a completed collection. Checked in this order: unknown fields, externalId missing, null or empty, externalId or reason not a string (400 PKC_2008); the amount (400 PKC_2002); externalId longer than 100 characters (400 PKC_2006); reason longer than 200 (400 PKC_2007); a control character in externalId or reason (400 PKC_2008). A refused body reserves nothing and leaves the externalId free.',
    example: { externalId: 'refund-1001', amount: 10, reason: 'Goods returned' },
  });
export type PublicRefundRequest = z.infer<typeof refundRequestSchema>;

export const refundReferenceIdParamsSchema = z.object({
  referenceId: z.string().meta({ param: { description: 'The referenceId the refund call returned (PKR-…).', example: 'PKR-1718003600000-7C2E91A04B3D58F6A1E2D3C4' } }),
});

export const refundSchema = z
  .strictObject({
    referenceId: refundReferenceIdField,
    collectionReferenceId: collectionReferenceIdField.meta({ description: 'The refunded collection.' }),
    externalId: externalIdField.meta({ description: 'Your reference from the refund call.', example: 'refund-1001' }),
    status: z.enum(refundStatuses).meta({
      description:
        'processing (the wallet could not be reached yet; the refund completes or fails on its own and refund.completed or refund.failed follows), completed (the user was paid back), failed (nothing moved; see failureReason; its amount can be refunded again). completed and failed are final.',
      example: 'completed',
    }),
    amount: amountField,
    currency: currencyField,
    fee: z.literal(0).meta({ description: 'Always 0: a refund carries no fee (the collection’s fee is not given back).', example: 0 }),
    reason: z.string().max(refundReasonLengthMax).nullable().meta({ description: 'The reason you gave, or null.', example: 'Goods returned' }),
    transactionId: transactionIdField.optional().meta({ description: 'Only when completed: the wallet transaction that moved the money.' }),
    failureReason: failureReasonSchema.optional(),
    createdAt: instantField,
    completedAt: instantField.optional().meta({ description: 'Only when completed: when the money moved (UTC).' }),
    collectionRefundedAmount: nonNegativeAmountField.meta({
      description: 'The collection’s refunded total now (its refundedAmount): the sum of its refunds in progress or completed, this one included unless it failed.',
      example: 10,
    }),
  })
  .meta({ id: 'Refund', description: 'A refund as it is now. transactionId and completedAt only when completed, failureReason only when failed.' });
export type PublicRefund = z.infer<typeof refundSchema>;

export const refundExample: PublicRefund = {
  referenceId: 'PKR-1718003600000-7C2E91A04B3D58F6A1E2D3C4',
  collectionReferenceId: 'PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E',
  externalId: 'refund-1001',
  status: 'completed',
  amount: 10,
  currency: 'USD',
  fee: 0,
  reason: 'Goods returned',
  transactionId: 'TXN-5E2B7C09A14D3F68',
  createdAt: '2024-06-10T07:13:20.000Z',
  completedAt: '2024-06-10T07:13:20.412Z',
  collectionRefundedAmount: 10,
};

export const processingRefundExample: PublicRefund = {
  referenceId: 'PKR-1718003700000-1A2B3C4D5E6F708192A3B4C5',
  collectionReferenceId: 'PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E',
  externalId: 'refund-1002',
  status: 'processing',
  amount: 15.5,
  currency: 'USD',
  fee: 0,
  reason: null,
  createdAt: '2024-06-10T07:15:00.000Z',
  collectionRefundedAmount: 25.5,
};

export const failedRefundExample: PublicRefund = {
  referenceId: 'PKR-1718003800000-0F1E2D3C4B5A69788796A5B4',
  collectionReferenceId: 'PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E',
  externalId: 'refund-1003',
  status: 'failed',
  amount: 15.5,
  currency: 'USD',
  fee: 0,
  reason: null,
  failureReason: { code: 'PKC_3002', message: 'User account not active (suspended or closed)' },
  createdAt: '2024-06-10T07:16:40.000Z',
  collectionRefundedAmount: 10,
};

// ---- GET /partner/v1/refunds -------------------------------------------------------------------

/** The refunds list's query: the transaction lists' filters plus collectionReferenceId. */
export const refundListQuerySchema = z
  .object({
    ...transactionListFieldsOf(refundStatuses, 'refund'),
    collectionReferenceId: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({ param: { description: 'Only the refunds of this collection (its PKC-… referenceId, exact match).', example: 'PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E' } }),
  })
  .strict()
  .superRefine(createdRangeIsValid);
export type RefundListQuery = z.output<typeof refundListQuerySchema>;

export const refundPageSchema = pageSchemaOf(refundSchema, 'RefundPage', 'A page of your refunds, newest first; each item is what GET /refund/{referenceId} answers.');
export type PublicRefundPage = z.infer<typeof refundPageSchema>;

export const refundPageExample: PublicRefundPage = { items: [processingRefundExample, refundExample], nextCursor: null, hasMore: false };
