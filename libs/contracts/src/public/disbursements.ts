import { z } from 'zod';
import { amountField, currencyField, disbursementReferenceIdField, externalIdField, failureReasonSchema, feeField, instantField, nonNegativeAmountField, pkcCodeField, transactionIdField } from './fields';
import { bulkReferenceIdPattern } from '../bulk-events';
import { pageSchemaOf } from './pagination';
import { transactionListQuerySchemaOf } from './transaction-list-fields';

export const disbursementStatuses = ['pending', 'completed', 'failed'] as const;

export const disbursementReferenceIdParamsSchema = z.object({
  referenceId: z.string().meta({
    param: { description: 'The referenceId the transfer returned (PKD-…).', example: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4' },
  }),
});

export const disbursementTransferSchema = z
  .strictObject({
    referenceId: disbursementReferenceIdField,
    status: z.literal('completed').meta({ description: 'A 200 always means completed: the money has moved.' }),
    transactionId: transactionIdField,
    amount: amountField.meta({ description: 'What the user received.' }),
    currency: currencyField,
    fee: feeField,
    totalDebit: amountField.meta({ description: 'amount + fee, debited from your balance.' }),
  })
  .meta({ id: 'DisbursementTransfer', description: 'A completed transfer: the user’s wallet was credited and your balance debited by totalDebit.' });
export type PublicDisbursementTransfer = z.infer<typeof disbursementTransferSchema>;

/**
 * The reversal of a completed disbursement (decision 0063): the operator took the amount back from
 * the user's wallet and returned it to your balance, in a transaction of its own (a `reversal`
 * line of your statement). The disbursement's status stays completed: the spec has no reversed status.
 */
export const disbursementReversalSchema = z
  .strictObject({
    transactionId: transactionIdField.meta({ description: 'The reversal’s own transaction (TXN-…): the transactionId of the `reversal` line of your statement.', example: 'TXN-6A1F0C3E9B27D548' }),
    amount: amountField.meta({ description: 'What went back to your balance: the disbursement’s whole amount (the fee is not returned).', example: 5000 }),
    currency: currencyField,
    reversedAt: instantField.meta({ description: 'When the reversal was posted, UTC.', example: '2024-06-11T09:02:41.207Z' }),
  })
  .meta({
    id: 'DisbursementReversal',
    description:
      'Only on a completed disbursement the operator reversed (addition to the spec): the amount went back from the user’s wallet to your balance, and disbursement.reversed was sent to your webhook. status stays completed. At most one per disbursement.',
  });
export type PublicDisbursementReversal = z.infer<typeof disbursementReversalSchema>;

export const disbursementStatusSchema = z
  .strictObject({
    referenceId: disbursementReferenceIdField,
    externalId: externalIdField,
    status: z.enum(disbursementStatuses).meta({
      description: 'pending (the outcome is not known yet, after a 500 PKC_7002; it settles on its own), completed (the money moved), failed (no money moved; the externalId is free again).',
      example: 'completed',
    }),
    transactionId: transactionIdField.nullable().meta({ description: 'Set when completed, else null.' }),
    amount: amountField,
    currency: currencyField,
    fee: feeField,
    totalDebit: amountField,
    netAmount: nonNegativeAmountField.meta({ description: 'What the user received: the amount once completed, 0 while pending and when failed.', example: 5000 }),
    createdAt: instantField,
    completedAt: instantField.nullable().meta({ description: 'When the money moved; null unless completed.' }),
    failureCode: pkcCodeField.optional().meta({ description: 'Only when failed: the code the transfer call answered (PKC_4002, PKC_7003, PKC_7004 after the budget ran out, …).', example: 'PKC_4002' }),
    failureReason: failureReasonSchema.optional(),
    bulkId: z.string().regex(bulkReferenceIdPattern).optional().meta({ description: 'Only for a payout of a bulk: the bulk’s id (PKB-…).', example: 'PKB-1718000000000-2A9C4E6F8B1D3F5A7C9E0B2D' }),
    note: z.string().optional().meta({ description: 'Only when you sent a note (on the transfer, or on the bulk’s item): the note exactly as you sent it. Absent when you sent none, null or "".', example: 'Salary advance' }),
    reversal: disbursementReversalSchema.optional(),
  })
  .meta({ id: 'DisbursementStatus', description: 'A disbursement as it is now, whatever became of it. Failed ones add failureCode and failureReason; reversed ones add reversal; one sent with a note adds note.' });
export type PublicDisbursementStatus = z.infer<typeof disbursementStatusSchema>;

export const disbursementTransferExample: PublicDisbursementTransfer = {
  referenceId: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4',
  status: 'completed',
  transactionId: 'TXN-8D41E6B09A2C7F35',
  amount: 5000,
  currency: 'LRD',
  fee: 100,
  totalDebit: 5100,
};

export const disbursementStatusExample: PublicDisbursementStatus = {
  referenceId: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4',
  externalId: 'payout-2002',
  status: 'completed',
  transactionId: 'TXN-8D41E6B09A2C7F35',
  amount: 5000,
  currency: 'LRD',
  fee: 100,
  totalDebit: 5100,
  netAmount: 5000,
  createdAt: '2024-06-10T06:13:20.000Z',
  completedAt: '2024-06-10T06:13:20.412Z',
  note: 'Salary advance',
};

export const failedDisbursementStatusExample: PublicDisbursementStatus = {
  referenceId: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4',
  externalId: 'payout-2002',
  status: 'failed',
  transactionId: null,
  amount: 5000,
  currency: 'LRD',
  fee: 100,
  totalDebit: 5100,
  netAmount: 0,
  createdAt: '2024-06-10T06:13:20.000Z',
  completedAt: null,
  failureCode: 'PKC_4002',
  failureReason: { code: 'PKC_4002', message: 'Partner balance insufficient for amount plus fee' },
};

// ---- GET /partner/v1/disbursements (issue 18) --------------------------------------------------

/** The disbursements list's query: status, currency, externalId, createdFrom, createdTo, limit, cursor. */
export const disbursementListQuerySchema = transactionListQuerySchemaOf(disbursementStatuses, 'disbursement');
export type DisbursementListQuery = z.output<typeof disbursementListQuerySchema>;

export const disbursementPageSchema = pageSchemaOf(disbursementStatusSchema, 'DisbursementPage', 'A page of your disbursements, newest first; each item is what GET /disbursement/{referenceId} answers.');
export type PublicDisbursementPage = z.infer<typeof disbursementPageSchema>;

export const disbursementPageExample: PublicDisbursementPage = {
  items: [
    { ...failedDisbursementStatusExample, referenceId: 'PKD-1718000900000-5C8F20A1B3D4E6F7A8B9C0D1', externalId: 'payout-2003', createdAt: '2024-06-10T06:28:20.000Z' },
    disbursementStatusExample,
  ],
  nextCursor: null,
  hasMore: false,
};
