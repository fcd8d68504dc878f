import { z } from 'zod';
import { externalIdLengthMax, noteLengthMax } from '../confirm-request';
import { amountField, collectionReferenceIdField, currencyField, externalIdField, failureReasonSchema, feeField, instantField, transactionIdField, uuidField } from './fields';
import { pageSchemaOf } from './pagination';
import { transactionListQuerySchemaOf } from './transaction-list-fields';

/**
 * The body of both confirm calls (collection/request, disbursement/transfer), as
 * parseConfirmRequestBody (libs/contracts) reads it, in its order: PKC_2008, 2009, 2006, 2007.
 */
export const confirmRequestSchema = z
  .object({
    quoteId: uuidField.meta({ description: 'The quoteId of a quote of this operation, as returned. Not a UUID: 400 PKC_2009.' }),
    externalId: externalIdField,
    note: z
      .string()
      .max(noteLengthMax)
      .nullable()
      .optional()
      .meta({ description: `At most ${noteLengthMax} characters (longer: 400 PKC_2007); absent, null and "" all mean no note. Collections show it to the user in the app; disbursements in the user’s transaction history.`, example: 'Invoice 1001' }),
  })
  .strict()
  .meta({
    id: 'ConfirmRequest',
    description: `Confirms a quote. quoteId or externalId missing, null or empty, a field of the wrong type, or a field other than these three: 400 PKC_2008 (each named in invalidFields). externalId is 1 to ${externalIdLengthMax} characters. A refused body uses neither the quote nor the externalId.`,
    example: { quoteId: '6f1c2a9e-4b7d-4e3a-9c55-0d2b8e7f1a34', externalId: 'order-1001', note: 'Invoice 1001' },
  });
export type PublicConfirmRequest = z.infer<typeof confirmRequestSchema>;

export const collectionStatuses = ['pending_approval', 'completed', 'declined', 'expired', 'failed', 'cancelled'] as const;

export const collectionReferenceIdParamsSchema = z.object({
  referenceId: z.string().meta({
    param: { description: 'The referenceId the collection request returned (PKC-…).', example: 'PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E' },
  }),
});

export const collectionAcceptedSchema = z
  .strictObject({
    referenceId: collectionReferenceIdField,
    status: z.literal('pending_approval'),
    amount: amountField,
    currency: currencyField,
    fee: feeField,
    totalDebit: amountField.meta({ description: 'amount + fee, debited from the user’s wallet once they approve.' }),
    expiresAt: instantField.meta({ description: 'End of the 10-minute approval window (UTC).' }),
    message: z.string().min(1).meta({ description: 'For people; the wording may change.' }),
  })
  .meta({ id: 'CollectionAccepted', description: 'The collection request was created and the user notified; it waits for their answer until expiresAt.' });
export type PublicCollectionAccepted = z.infer<typeof collectionAcceptedSchema>;

export const collectionStatusSchema = z
  .strictObject({
    referenceId: collectionReferenceIdField,
    externalId: externalIdField,
    status: z.enum(collectionStatuses).meta({
      description:
        'pending_approval (waiting for the user, also while an approval is processed), completed (the money moved), declined, expired, failed (approved but the payment could not be made; see failureReason), cancelled (you withdrew it while it was pending; no money moved). All but pending_approval are final.',
      example: 'completed',
    }),
    amount: amountField,
    currency: currencyField,
    fee: feeField,
    totalDebit: amountField,
    transactionId: z
      .strictObject({
        transactionId: transactionIdField,
        status: z.literal('completed'),
        completedAt: instantField,
      })
      .optional()
      .meta({ description: 'Only when completed: the wallet transaction that moved the money.' }),
    refundedAmount: z
      .number()
      .min(0)
      .optional()
      .meta({ description: 'Only when completed: the sum of the collection’s refunds in progress or completed (0 when none). What is left to refund is amount − refundedAmount.', example: 0 }),
    expiresAt: instantField,
    createdAt: instantField,
    failureReason: failureReasonSchema.optional(),
  })
  .meta({ id: 'CollectionStatus', description: 'A collection as it is now. Every status has the same fields; transactionId only when completed, failureReason only when failed.' });
export type PublicCollectionStatus = z.infer<typeof collectionStatusSchema>;

export const collectionAcceptedExample: PublicCollectionAccepted = {
  referenceId: 'PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E',
  status: 'pending_approval',
  amount: 25.5,
  currency: 'USD',
  fee: 0.26,
  totalDebit: 25.76,
  expiresAt: '2024-06-10T06:23:20.000Z',
  message: 'Collection request sent to Comfort Gold; waiting for approval until 2024-06-10T06:23:20.000Z',
};

export const collectionStatusExample: PublicCollectionStatus = {
  referenceId: 'PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E',
  externalId: 'order-1001',
  status: 'completed',
  amount: 25.5,
  currency: 'USD',
  fee: 0.26,
  totalDebit: 25.76,
  transactionId: { transactionId: 'TXN-3C9A0F7B12E45D68', status: 'completed', completedAt: '2024-06-10T06:15:02.000Z' },
  expiresAt: '2024-06-10T06:23:20.000Z',
  createdAt: '2024-06-10T06:13:20.000Z',
};

export const failedCollectionStatusExample: PublicCollectionStatus = {
  referenceId: 'PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E',
  externalId: 'order-1001',
  status: 'failed',
  amount: 25.5,
  currency: 'USD',
  fee: 0.26,
  totalDebit: 25.76,
  expiresAt: '2024-06-10T06:23:20.000Z',
  createdAt: '2024-06-10T06:13:20.000Z',
  failureReason: { code: 'PKC_4001', message: 'User balance insufficient for amount plus fee' },
};

// ---- GET /partner/v1/collections (issue 18) ----------------------------------------------------

/** The collections list's query: status, currency, externalId, createdFrom, createdTo, limit, cursor. */
export const collectionListQuerySchema = transactionListQuerySchemaOf(collectionStatuses, 'collection');
export type CollectionListQuery = z.output<typeof collectionListQuerySchema>;

export const collectionPageSchema = pageSchemaOf(collectionStatusSchema, 'CollectionPage', 'A page of your collections, newest first; each item is what GET /collection/{referenceId} answers.');
export type PublicCollectionPage = z.infer<typeof collectionPageSchema>;

export const collectionPageExample: PublicCollectionPage = {
  items: [
    { ...collectionStatusExample, referenceId: 'PKC-1718000900000-0A1B2C3D4E5F60718293A4B5C6D7E8F9', externalId: 'order-1002', createdAt: '2024-06-10T06:28:20.000Z', expiresAt: '2024-06-10T06:38:20.000Z', transactionId: { transactionId: 'TXN-4D0B1A8C23F56E79', status: 'completed', completedAt: '2024-06-10T06:29:02.000Z' } },
    failedCollectionStatusExample,
  ],
  nextCursor: 'eyJ2IjoxLCJzIjoiYk5nWjJ4T3hKVG5Ddm1zSGZ1c0N1dyIsInAiOnsiYyI6IjIwMjQtMDYtMTBUMDY6MTA6MDAuMTIzNDU2WiJ9fQ',
  hasMore: true,
};
